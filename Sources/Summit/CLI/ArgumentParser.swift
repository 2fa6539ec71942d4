import Foundation
import SummitDatabase

/// Turns words into an `Invocation` by the command table; writes help.
public enum ArgumentParser {
    public enum Outcome {
        case run(Command, Invocation)
        case help(String)
    }

    public static func parse(
        _ words: [String], root: Command, workspace: @escaping @Sendable () throws -> Workspace, console: Console
    ) throws -> Outcome {
        var command = root
        var path = [root.name]
        var rest = words[...]
        // Walk down subcommands while the next word names one.
        while let word = rest.first, let sub = command.subcommands.first(where: { $0.name == word }) {
            command = sub
            path.append(word)
            rest = rest.dropFirst()
        }
        let commandPath = path.joined(separator: " ")
        var invocation = Invocation(commandPath: commandPath, arguments: [], values: [:], flags: [],
                                    passthrough: [], workspace: workspace, console: console)
        while let word = rest.first {
            rest = rest.dropFirst()
            if word == "--help" || word == "-h" { return .help(help(for: command, path: commandPath)) }
            if word == "--" {
                invocation.passthrough.append(contentsOf: rest)
                rest = []
                break
            }
            if word.hasPrefix("--") {
                let (name, inline) = splitOption(word)
                guard let option = command.options.first(where: { $0.name == name }) else {
                    if command.passesThrough {
                        invocation.passthrough.append(word)
                        invocation.passthrough.append(contentsOf: rest)
                        rest = []
                        break
                    }
                    throw CLIError.usage("unknown option \(name) for \(commandPath)", command: commandPath)
                }
                if option.value == nil {
                    guard inline == nil else {
                        throw CLIError.usage("\(name) takes no value", command: commandPath)
                    }
                    invocation.flags.insert(name)
                    continue
                }
                let value: String
                if let inline {
                    value = inline
                } else if let next = rest.first {
                    value = next
                    rest = rest.dropFirst()
                } else {
                    throw CLIError.usage("\(name) needs a value (\(option.value!))", command: commandPath)
                }
                if !option.repeatable, invocation.values[name] != nil {
                    throw CLIError.usage("\(name) was given twice", command: commandPath)
                }
                invocation.values[name, default: []].append(value)
                continue
            }
            if command.passesThrough && invocation.arguments.count >= command.arguments.count {
                invocation.passthrough.append(word)
                invocation.passthrough.append(contentsOf: rest)
                rest = []
                break
            }
            invocation.arguments.append(word)
        }
        if command.run == nil {
            if let word = invocation.arguments.first {
                throw CLIError.usage("unknown command \"\(word)\" for \(commandPath)", command: commandPath)
            }
            return .help(help(for: command, path: commandPath))
        }
        let required = command.arguments.filter { !$0.optional && !$0.variadic }.count
        if invocation.arguments.count < required {
            let missing = command.arguments[invocation.arguments.count].name
            throw CLIError.usage("\(commandPath) needs \(missing)", command: commandPath)
        }
        if !(command.arguments.last?.variadic ?? false), invocation.arguments.count > command.arguments.count {
            throw CLIError.usage("unexpected argument \"\(invocation.arguments[command.arguments.count])\"", command: commandPath)
        }
        return .run(command, invocation)
    }

    static func splitOption(_ word: String) -> (String, String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    public static func help(for command: Command, path: String) -> String {
        var lines: [String] = []
        var usage = "usage: \(path)"
        if !command.subcommands.isEmpty { usage += " <command>" }
        for argument in command.arguments {
            let name = argument.variadic ? "\(argument.name)…" : argument.name
            usage += argument.optional || argument.variadic ? " [\(name)]" : " \(name)"
        }
        if !command.options.isEmpty { usage += " [options]" }
        if command.passesThrough { usage += " [-- ARGS…]" }
        lines.append(usage)
        lines.append("")
        lines.append(command.summary)
        if let discussion = command.discussion {
            lines.append("")
            lines.append(discussion)
        }
        if !command.subcommands.isEmpty {
            lines += section("commands", command.subcommands.map { ($0.name, $0.summary) })
        }
        if !command.arguments.isEmpty {
            lines += section("arguments", command.arguments.map { ($0.name, $0.help) })
        }
        let options = command.options + [.flag("--help", "show this help")]
        lines += section("options", options.map { option in
            (option.value.map { "\(option.name) \($0)" } ?? option.name,
             option.help + (option.repeatable ? " (repeatable)" : ""))
        })
        if !command.subcommands.isEmpty {
            lines.append("")
            lines.append("Run `\(path) <command> --help` for a command's own options.")
        }
        return lines.joined(separator: "\n")
    }

    /// A titled two-column list, the labels padded to one width.
    private static func section(_ title: String, _ rows: [(label: String, text: String)]) -> [String] {
        let width = rows.map(\.label.count).max() ?? 0
        return ["", "\(title):"] + rows.map { "  " + $0.label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.text }
    }
}
