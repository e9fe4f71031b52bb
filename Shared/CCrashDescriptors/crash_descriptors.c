#define _GNU_SOURCE
#include "crash_descriptors.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define CRASH_SIGNAL_COUNT (sizeof(crash_signals) / sizeof(crash_signals[0]))
static struct sigaction previous[CRASH_SIGNAL_COUNT];

/// Async-signal-safe: one close_range(2) call (Linux 5.11), or fcntl(2) over the usual descriptor range.
static void mark_descriptors_close_on_exec(void) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
#endif
    for (int fd = 3; fd < 65536; fd++) {
        int flags = fcntl(fd, F_GETFD);
        if (flags >= 0 && !(flags & FD_CLOEXEC)) fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
    }
}

static void on_crash(int signal_number, siginfo_t *info, void *context) {
    mark_descriptors_close_on_exec();
    for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        if (crash_signals[i] != signal_number) continue;
        struct sigaction *handler = &previous[i];
        if (handler->sa_flags & SA_SIGINFO) {
            handler->sa_sigaction(signal_number, info, context);
        } else if (handler->sa_handler != SIG_DFL && handler->sa_handler != SIG_IGN) {
            handler->sa_handler(signal_number);
        }
        break;
    }
    // The runtime's handler has reported the crash and returned. The process ends as the signal's default action
    // ends it, whatever handler is installed now: returning into a process that crashed (or that was sent the
    // signal) left it running after its crash report, measured here, holding its port and its work.
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

int crash_descriptors_install(void) {
    int wrapped = 0;
    for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        struct sigaction current;
        if (sigaction(crash_signals[i], NULL, &current) != 0) continue;
        previous[i] = current;
        struct sigaction mine;
        memset(&mine, 0, sizeof(mine));
        mine.sa_sigaction = on_crash;
        // The runtime's own flags (its alternate stack above all) carry over; ours always wants siginfo.
        mine.sa_flags = current.sa_flags | SA_SIGINFO;
        mine.sa_mask = current.sa_mask;
        if (sigaction(crash_signals[i], &mine, NULL) == 0) wrapped++;
    }
    return wrapped;
}
