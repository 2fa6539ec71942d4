import Foundation

/// Search workspaces left by finished solves, for the next solve to take:
/// safe to share between threads (a solve takes workspaces out under the
/// lock and works in them alone). Holds at most two, one solve's worth, so
/// an idle process keeps only the memory of its last solve; concurrent
/// solves beyond that make their own.
final class SearchWorkspacePool: @unchecked Sendable {
    static let shared = SearchWorkspacePool()

    static let idleLimit = 2

    // Guarded by `lock`.
    private let lock = NSLock()
    private var idle: [SearchWorkspace] = []

    /// Runs `body` with two workspaces ready for searches on a graph of this
    /// size, and keeps them afterwards. Whatever `body` returns must not
    /// hold on to their forests (it would only cost a copy next time).
    func withWorkspaces<Result>(nodeCount: Int, edgeCount: Int,
                                _ body: (inout SearchWorkspace, inout SearchWorkspace) -> Result) -> Result {
        var a = take(nodeCount: nodeCount, edgeCount: edgeCount)
        var b = take(nodeCount: nodeCount, edgeCount: edgeCount)
        let result = body(&a, &b)
        give(a)
        give(b)
        return result
    }

    private func take(nodeCount: Int, edgeCount: Int) -> SearchWorkspace {
        let kept: SearchWorkspace? = lock.withLock { idle.popLast() }
        guard var workspace = kept else { return SearchWorkspace(nodeCount: nodeCount, edgeCount: edgeCount) }
        workspace.reset(nodeCount: nodeCount, edgeCount: edgeCount)
        return workspace
    }

    private func give(_ workspace: SearchWorkspace) {
        lock.withLock {
            if idle.count < Self.idleLimit { idle.append(workspace) }
        }
    }
}
