import SummitDatabase
/// One `summit` command: its words, options and action, as data.
///
/// Help text, parsing and errors all come from this table, so a command cannot
/// accept an option its `--help` doesn't list.
public struct Command: Sendable {
    public struct Option: Sendable {
        /// `--as`
        public var name: String
        /// `USER`; nil for a flag that takes no value.
        public var value: String?
        public var help: String
        public var repeatable = false

        public static func flag(_ name: String, _ help: String) -> Option {
            Option(name: name, value: nil, help: help)
        }

        public static func value(_ name: String, _ value: String, _ help: String, repeatable: Bool = false) -> Option {
            Option(name: name, value: value, help: help, repeatable: repeatable)
        }
    }

    public struct Argument: Sendable {
        public var name: String
        public var help: String
        public var optional = false
        /// Takes every remaining word.
        public var variadic = false
    }

    public var name: String
    public var summary: String
    public var discussion: String?
    public var arguments: [Argument] = []
    public var options: [Option] = []
    public var subcommands: [Command] = []
    /// Everything after the arguments goes, unparsed, to `Invocation.passthrough` (for `summit psql`).
    public var passesThrough = false
    public var run: (@Sendable (Invocation) async throws -> Int32)?

    public init(
        name: String, summary: String, discussion: String? = nil, arguments: [Argument] = [], options: [Option] = [],
        subcommands: [Command] = [], passesThrough: Bool = false, run: (@Sendable (Invocation) async throws -> Int32)? = nil
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.passesThrough = passesThrough
        self.run = run
    }
}

/// A parsed command line, handed to a command's action.
public struct Invocation: Sendable {
    /// `summit migrate`, for messages.
    public var commandPath: String
    public var arguments: [String]
    public var values: [String: [String]]
    public var flags: Set<String>
    public var passthrough: [String]
    public var workspace: @Sendable () throws -> Workspace
    public var console: Console

    public func flag(_ name: String) -> Bool { flags.contains(name) }
    public func value(_ name: String) -> String? { values[name]?.last }
    public func values(_ name: String) -> [String] { values[name] ?? [] }

    public func required(_ name: String) throws -> String {
        guard let value = value(name) else {
            throw CLIError.usage("\(commandPath) needs \(name)", command: commandPath)
        }
        return value
    }

    public var json: Bool { flag("--json") }
}
