#ifndef CRASH_DESCRIPTORS_H
#define CRASH_DESCRIPTORS_H

/// Wraps the handlers already installed for the crash signals (the Swift runtime's, which start the crash
/// reporter `swift-backtrace` as a child) with one that first marks every descriptor from 3 up close-on-exec.
/// Otherwise the reporter inherits the crashed process's sockets (SwiftNIO opens them without SOCK_CLOEXEC):
/// its listening socket, and its Postgres connections with their open transactions and row locks, live on
/// while the reporter symbolicates (minutes for a debug build), and the process started again in its place
/// cannot bind its port or waits on those locks. Call once, after the runtime has installed its handlers.
/// Returns the number of signals wrapped.
int crash_descriptors_install(void);

#endif
