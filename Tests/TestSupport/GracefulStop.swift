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

/// Runs `body`, then stops the fake gracefully whether `body` returned or threw (a failing test must not end in
/// NIO's trap and hide its own failure).
func stoppingGracefully<Result: Sendable>(
    _ group: ServiceGroup, running serverTask: Task<Void, any Error>, _ body: () async throws -> Result
) async throws -> Result {
    let result: Result
    do {
        result = try await body()
    } catch {
        await stopGracefully(group, running: serverTask)
        throw error
    }
    await stopGracefully(group, running: serverTask)
    return result
}
