import Foundation
import Testing
import MountainGraph
@testable import MeetSolver

/// Lift queues and wind on the ride are first-in-first-out: reaching a lift
/// later never gets a skier to the top earlier, whatever the forecast, the
/// live wait, the day or the reviewed hours.
@Suite("Time-dependent FIFO")
struct FIFOTests {
    /// One queue-entry lift with random reviewed facts, a random live wait,
    /// a random (gappy, stormy) forecast, at a random moment of the week.
    static func randomLift(_ random: inout TestRandom) -> (TraversalContext, Int) {
        var m = TestMountain()
        m.node(1, x: 0, y: 0, kind: .liftBase); m.node(2, x: 0, y: 8, kind: .liftTop)
        m.lift("l1", 1, 2, ride: random.uniform(60, 1_500), name: "Random")
        m.meetAt(2)
        let now = TestMountain.wednesdayTen + random.uniform(-3, 4) * 86_400
        let hourly = random.gappyForecast(from: now - random.uniform(0, 6) * 3600, until: now + 30 * 3600, kept: 0.85,
                                          temperature: (-20, 5), storm: (0.3, (60, 130)), calmWind: (0, 60),
                                          visibility: (0.2, 20), longStep: (0.2, (1.2, 3.5)))
        let conditions = ResortConditions(current: WeatherReading(temperature: -3, wind: random.uniform(0, 110), visibility: 10, cloudCover: 20),
                                          hourly: hourly, utcOffsetSeconds: Int(random.uniform(-10, 12)) * 3600)
        let wait: Double? = random.chance(0.7) ? random.uniform(0, 60) : nil
        let operation = LiftOperation(openHour: random.chance(0.5) ? 0 : random.uniform(6, 9),
                                      closeHour: random.chance(0.5) ? 24 : random.uniform(15, 17),
                                      weekdayWaitMinutes: random.chance(0.5) ? random.uniform(0, 60) : nil,
                                      weekendWaitMinutes: random.chance(0.5) ? random.uniform(0, 60) : nil)
        var status = m.status(now: now, edges: ["l1": .init(isOpen: true, waitMinutes: wait)])
        status.observedAt = now - random.uniform(0, 3000)
        let solver = m.solver(now: now, status: .some(status), conditions: conditions,
                              operations: random.chance(0.8) ? LiftOperations(["lift:Random": operation]) : .none)
        let context = solver.makeContext(for: "ann")!
        return (context, Int(context.environment.graph.edgeIndex["l1"]!))
    }

    @Test("completion time never decreases with departure time (randomised, 300 lifts × 650 departures)")
    func completionIsMonotonic() {
        var random = TestRandom(seed: 20_260_114)
        var compared = 0
        for _ in 0..<300 {
            let (context, lift) = Self.randomLift(&random)
            var departures = (0..<400).map { _ in random.uniform(0, 24 * 3600) }
            // Dense pairs too: a jump hides between close departures.
            departures += departures.prefix(100).map { $0 + random.uniform(0, 2) }
            // And densely around local midnight, where the day type (and so the base wait) changes.
            let solveTime = context.solveTime!
            let midnight = context.environment.clock.midnight(atOrBefore: solveTime + 86_400) - solveTime
            departures += stride(from: midnight - 60, through: midnight + 900, by: 5).map { $0 }
            departures.sort()
            var previous: (time: Double, completion: Double)?
            for departure in departures {
                guard let cost = context.cost(of: lift, at: context.moment(at: departure)) else {
                    previous = nil // closed: FIFO holds among departures that can board
                    continue
                }
                let completion = departure + cost.time
                if let previous {
                    #expect(completion >= previous.completion - 1e-6,
                            "departing \(departure - previous.time) s later arrives \(previous.completion - completion) s earlier")
                    compared += 1
                }
                previous = (departure, completion)
            }
        }
        #expect(compared > 50_000)
    }

    @Test("wind stretches only the ride: time already spent waiting is never multiplied")
    func windOnlyOnRide() throws {
        var m = TestMountain()
        m.node(1, x: 0, y: 0, kind: .liftBase); m.node(2, x: 0, y: 8, kind: .liftTop)
        m.lift("l1", 1, 2, ride: 400, name: "Windy")
        m.meetAt(2)
        let operations = LiftOperations(["lift:Windy": LiftOperation(weekdayWaitMinutes: 5, weekendWaitMinutes: 5)])
        func time(wind: Double) throws -> (Double, Double) {
            let conditions = ResortConditions(current: WeatherReading(temperature: -3, wind: wind, visibility: 10, cloudCover: 0),
                                              utcOffsetSeconds: 3600)
            let context = try #require(m.solver(conditions: conditions, operations: operations).makeContext(for: "ann"))
            let index = Int(context.environment.graph.edgeIndex["l1"]!)
            let cost = try #require(context.cost(of: index, at: context.moment(at: 0)))
            let wait = try #require(context.environment.queues[index]).wait(at: context.solveTime!)
            return (cost.time, wait)
        }
        let (calm, calmWait) = try time(wind: 10)
        let (storm, stormWait) = try time(wind: 70)
        #expect(calmWait == stormWait)
        #expect(abs(calm - (calmWait + 400)) < 1e-9)
        #expect(abs(storm - (stormWait + 400 * 1.35)) < 1e-9)
    }

    @Test("a live wait fades into the typical queue over an hour")
    func liveWaitFades() throws {
        let clock = ResortClock(utcOffsetSeconds: 3600)
        let observed = TestMountain.wednesdayTen
        let queue = LiftQueue(operation: LiftOperation(weekdayWaitMinutes: 4), heuristicWeekday: 90, heuristicWeekend: 126,
                              liveWaitMinutes: 8, observedAt: observed, clock: clock)
        let typical = { (instant: Double) in min(600, 240 * QueueDemand.multiplier(atLocalHour: clock.hour(at: instant))) }
        #expect(abs(queue.wait(at: observed) - 480) < 1e-9)
        #expect(abs(queue.wait(at: observed + 1800) - (0.5 * 480 + 0.5 * typical(observed + 1800))) < 1e-9)
        #expect(abs(queue.wait(at: observed + 3600) - typical(observed + 3600)) < 1e-9)
        // A live figure far off the curve is pulled towards it.
        let wild = LiftQueue(operation: LiftOperation(weekdayWaitMinutes: 4), heuristicWeekday: 90, heuristicWeekend: 126,
                             liveWaitMinutes: 50, observedAt: observed, clock: clock)
        #expect(abs(wild.wait(at: observed) - (0.7 * 3000 + 0.3 * typical(observed))) < 1e-9)
    }
}
