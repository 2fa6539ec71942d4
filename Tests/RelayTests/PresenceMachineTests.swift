import Relay
import Testing

@Suite struct PresenceMachineTests {
    @Test func enteringRunsTheLifecycleInOrder() {
        var machine = PresenceMachine()
        #expect(machine.phase == .idle)
        guard case .begin(let attempt, nil) = machine.enter("vail") else { Issue.record("no plan"); return }
        #expect(machine.phase == .hydratingSocial)
        let result1 = machine.advance(to: .live, attempt: attempt)
        #expect(!result1, "phases cannot be skipped")
        let result2 = machine.advance(to: .subscribingChannels, attempt: attempt)
        #expect(result2)
        let result3 = machine.advance(to: .live, attempt: attempt)
        #expect(result3)
        #expect(machine.phase == .live && machine.resort == "vail")
        let result4 = machine.enter("vail")
        #expect(result4 == .alreadyThere, "entering the same resort again takes nothing more")
    }

    @Test func aStaleEnterAbandonsItsTransitions() {
        var machine = PresenceMachine()
        guard case .begin(let first, _) = machine.enter("vail") else { Issue.record("an idle machine must begin entering"); return }
        guard case .begin(let second, let leaving) = machine.enter("whistler") else { Issue.record("no plan"); return }
        #expect(leaving == "vail", "entering another resort tears the first one down")
        #expect(machine.phase == .tearingDown)
        let result5 = machine.advance(to: .subscribingChannels, attempt: first)
        #expect(!result5, "the overtaken enter cannot move the machine")
        let result6 = machine.advance(to: .hydratingSocial, attempt: second)
        #expect(result6)
        #expect(machine.resort == "whistler")
    }

    @Test func stopTearsDownToIdleUnlessSomethingNewerBegan() {
        var machine = PresenceMachine()
        guard case .begin(let attempt, _) = machine.enter("vail") else { Issue.record("an idle machine must begin entering"); return }
        _ = machine.advance(to: .subscribingChannels, attempt: attempt)
        guard let stop = machine.stop() else { Issue.record("stop must tear down"); return }
        #expect(stop.resort == "vail" && machine.phase == .tearingDown)
        machine.finishStop(attempt: stop.attempt)
        #expect(machine.phase == .idle && machine.resort == nil)
        let result7 = machine.stop()
        #expect(result7 == nil, "stopping an idle machine does nothing")

        guard case .begin = machine.enter("vail") else { Issue.record("an idle machine must begin entering"); return }
        guard let second = machine.stop() else { Issue.record("stopping while entering must tear down"); return }
        guard case .begin(let reentry, let leaving) = machine.enter("vail") else { Issue.record("re-entering during teardown"); return }
        #expect(leaving == "vail")
        machine.finishStop(attempt: second.attempt)
        #expect(machine.phase == .tearingDown, "the overtaken stop does not finish over the new enter")
        let result8 = machine.advance(to: .hydratingSocial, attempt: reentry)
        #expect(result8)
    }
}
