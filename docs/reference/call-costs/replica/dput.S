# A user-space replica of dput_fast_35.spec (docs/reference/call-costs.md, "Checking the method").
# Build and run: gcc -O2 -o replica main.c dput.S && ./replica
        .text
        .globl dput_replica
# 2.6.35 dput -> dput.part.0 -> _atomic_dec_and_lock, count above 1 (gcc 12 -O2 code,
# docs/reference/call-costs/dput_fast_35.spec), the cmpxchg replaced by a plain store
dput_replica:
        test   %rdi,%rdi
        je     1f
        push   %rbp
        mov    %rsp,%rbp
        call   part0
        pop    %rbp
1:      ret
part0:
        push   %rbp
        mov    %rsp,%rbp
        push   %r14
        movabs $0xdead000000100100,%r14
        push   %r13
        movabs $0xdead000000200200,%r13
        push   %r12
        push   %rbx
        mov    %rdi,%rbx
        mov    (%rbx),%eax
        cmp    $0x1,%eax
        je     9f
        lea    lockword(%rip),%rsi
        mov    %rbx,%rdi
        call   adl
        test   %eax,%eax
        je     8f
9:      ud2
8:      pop    %rbx
        pop    %r12
        pop    %r13
        pop    %r14
        pop    %rbp
        ret
adl:
        push   %rbp
        mov    %rsp,%rbp
        push   %r13
        mov    %rsi,%r13
        push   %r12
        push   %rbx
        mov    %rdi,%rbx
        sub    $0x8,%rsp
        mov    (%rdi),%r12d
        cmp    $0x1,%r12d
        je     9b
        lea    -0x1(%r12),%edx
        mov    %r12d,%eax
        mov    %edx,(%rbx)
        cmp    %eax,%r12d
        jne    9b
        xor    %r12d,%r12d
        add    $0x8,%rsp
        mov    %r12d,%eax
        pop    %rbx
        pop    %r12
        pop    %r13
        pop    %rbp
        ret
        .data
lockword: .long 0
        .section .note.GNU-stack,"",@progbits
