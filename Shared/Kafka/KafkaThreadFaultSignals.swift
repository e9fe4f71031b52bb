import CRdKafka

#if canImport(Glibc)
import Glibc
#endif

/// librdkafka starts its threads with every signal blocked. A fault in one of them (SIGSEGV, SIGBUS...) is
/// then not delivered to a handler: the kernel kills the process at once, without the runtime's crash report
/// and with nothing in the log. Unblocking the synchronous fault signals in each of its threads (they can
/// only come from that thread's own instruction) lets the crash reporter name the fault; asynchronous
/// signals such as SIGTERM stay blocked there, so the service's own threads still receive them.
enum KafkaThreadFaultSignals {
    static let interceptorName = "platform-fault-signals"

    /// Adds the interceptor to `conf`, before `rd_kafka_new` starts the threads.
    static func install(on conf: OpaquePointer) {
        // Spelled out in full: a C function pointer cannot capture, not even the enum's metatype.
        _ = rd_kafka_conf_interceptor_add_on_new(
            conf, KafkaThreadFaultSignals.interceptorName,
            { client, _, _, _, _ in
                rd_kafka_interceptor_add_on_thread_start(
                    client, KafkaThreadFaultSignals.interceptorName,
                    { _, _, _, _ in
                        KafkaThreadFaultSignals.unblockInThisThread()
                        return RD_KAFKA_RESP_ERR_NO_ERROR
                    }, nil)
            }, nil)
    }

    static let faultSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT]

    static func unblockInThisThread() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in faultSignals { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
