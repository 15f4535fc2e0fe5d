#include "race_fiber.h"

#include <stdint.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define DEEPLINK_FIBER_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define DEEPLINK_FIBER_SANITIZED 1
#endif

#if defined(__x86_64__) && !defined(DEEPLINK_FIBER_SANITIZED)

// Saves the callee-saved registers (System V: rbx, rbp, r12-r15, and the SSE and x87 control
// words) on the current stack, stores the stack pointer in *from, and restores the same from `to`.
void deeplink_fiber_switch(void **from, void *to);
__asm__(
    ".text\n"
    ".globl deeplink_fiber_switch\n"
    ".type deeplink_fiber_switch,@function\n"
    "deeplink_fiber_switch:\n"
    "    pushq %rbp\n"
    "    pushq %rbx\n"
    "    pushq %r12\n"
    "    pushq %r13\n"
    "    pushq %r14\n"
    "    pushq %r15\n"
    "    subq $8, %rsp\n"
    "    stmxcsr (%rsp)\n"
    "    fnstcw 4(%rsp)\n"
    "    movq %rsp, (%rdi)\n"
    "    movq %rsi, %rsp\n"
    "    ldmxcsr (%rsp)\n"
    "    fldcw 4(%rsp)\n"
    "    addq $8, %rsp\n"
    "    popq %r15\n"
    "    popq %r14\n"
    "    popq %r13\n"
    "    popq %r12\n"
    "    popq %rbx\n"
    "    popq %rbp\n"
    "    ret\n"
    ".size deeplink_fiber_switch, .-deeplink_fiber_switch\n"
    // A new fiber's first switch returns here with the fiber in r12 and a 16-byte aligned stack.
    ".globl deeplink_fiber_trampoline\n"
    ".type deeplink_fiber_trampoline,@function\n"
    "deeplink_fiber_trampoline:\n"
    "    movq %r12, %rdi\n"
    "    callq deeplink_fiber_main\n"
    "    ud2\n"
    ".size deeplink_fiber_trampoline, .-deeplink_fiber_trampoline\n");

void deeplink_fiber_trampoline(void);

__attribute__((used, noreturn)) void deeplink_fiber_main(deeplink_fiber *fiber) {
    fiber->entry(fiber->arg);
    fiber->finished = 1;
    deeplink_fiber_switch(&fiber->sp, fiber->caller_sp);
    __builtin_unreachable();
}

int deeplink_fiber_supported(void) { return 1; }

void deeplink_fiber_prepare(deeplink_fiber *fiber, void *stack_top, void (*entry)(void *), void *arg) {
    uintptr_t top = (uintptr_t)stack_top & ~(uintptr_t)15;
    // The frame deeplink_fiber_switch pops: control words, r15, r14, r13, r12, rbx, rbp, return
    // address; after its `ret` the stack pointer is `top`, 16-byte aligned.
    uint64_t *frame = (uint64_t *)(top - 8 * 8);
    uint32_t control = 0x1F80u;  // MXCSR's default
    uint16_t x87 = 0x037Fu;  // the x87 control word's default
    frame[0] = (uint64_t)control | ((uint64_t)x87 << 32);
    frame[1] = 0;  // r15
    frame[2] = 0;  // r14
    frame[3] = 0;  // r13
    frame[4] = (uint64_t)(uintptr_t)fiber;  // r12
    frame[5] = 0;  // rbx
    frame[6] = 0;  // rbp: the end of the frame chain
    frame[7] = (uint64_t)(uintptr_t)deeplink_fiber_trampoline;
    fiber->sp = frame;
    fiber->caller_sp = 0;
    fiber->entry = entry;
    fiber->arg = arg;
    fiber->finished = 0;
}

void deeplink_fiber_resume(deeplink_fiber *fiber) { deeplink_fiber_switch(&fiber->caller_sp, fiber->sp); }

void deeplink_fiber_yield(deeplink_fiber *fiber) { deeplink_fiber_switch(&fiber->sp, fiber->caller_sp); }

#else

int deeplink_fiber_supported(void) { return 0; }

void deeplink_fiber_prepare(deeplink_fiber *fiber, void *stack_top, void (*entry)(void *), void *arg) {
    (void)stack_top;
    fiber->entry = entry;
    fiber->arg = arg;
    fiber->finished = 0;
}

// Never called where unsupported: run the entry to its end, as a fiber that never yields would.
void deeplink_fiber_resume(deeplink_fiber *fiber) {
    fiber->entry(fiber->arg);
    fiber->finished = 1;
}

void deeplink_fiber_yield(deeplink_fiber *fiber) { (void)fiber; }

#endif
