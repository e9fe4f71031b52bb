import ServiceLifecycle

/// Stops a fake provider the way a server is stopped, not by cancelling its task: a running stack outlives the
/// fakes and may have a request in flight, and a connection cut by cancellation can trap in NIO ("Deinited
/// NIOAsyncWriter without calling finish()"). A request the fake holds on purpose (`Reply.delay`) is not waited
/// out forever: after the deadline the task is cancelled after all.
func stopGracefully(_ group: ServiceGroup, running serverTask: Task<Void, any Error>) async {
    await group.triggerGracefulShutdown()
    let deadline = Task {
        try await Task.sleep(for: .seconds(10))
        serverTask.cancel()
    }
    _ = try? await serverTask.value
    deadline.cancel()
}
