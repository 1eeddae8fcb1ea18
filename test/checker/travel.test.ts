/** The checker's own travel model must reproduce decisions.md's numbers, worked out by hand. */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/model/problem.js';
import { checkPlan, checkTravelMatrix, clockText, driveArrival, expectedLeg } from '../support/checker.js';
import { fixturePlan, fixtureProblem } from './fixture.js';

function geoProblem(traffic = 1): Problem {
  const problem = fixtureProblem();
  problem.travelSource = { kind: 'geo', roadFactor: 1.3, baseSpeedKmh: 40, traffic };
  // 0.01° of latitude: 6,371,008.8 m × 0.01 × π/180 = 1,111.95 m; × 1.3 = 1,445.5 → 1,446 m.
  problem.locations = [
    { lat: 52.5, lng: 13.4 },
    { lat: 52.51, lng: 13.4 },
  ];
  return problem;
}

describe('travel model of decisions.md', () => {
  it('geo distance: haversine (R = 6,371,008.8 m) × road factor 1.3, rounded to whole metres', () => {
    const problem = geoProblem();
    expect(expectedLeg(problem, problem.vehicles[0]!, 0, 1).distance).toBe(1446);
    expect(expectedLeg(problem, problem.vehicles[0]!, 1, 1)).toEqual({ distance: 0, travel: 0 });
  });

  it('geo travel time: distance ÷ (40 km/h × speed) × traffic, rounded up to a whole second', () => {
    const problem = geoProblem();
    const van = problem.vehicles[0]!;
    expect(expectedLeg(problem, van, 0, 1).travel).toBe(131); // 130.14 s
    expect(expectedLeg(problem, { ...van, speed: 0.5 }, 0, 1).travel).toBe(261); // 260.28 s
    const slowTraffic = geoProblem(1.5);
    expect(expectedLeg(slowTraffic, slowTraffic.vehicles[0]!, 0, 1).travel).toBe(196); // 195.21 s
  });

  it('euclidean trunc1: floor(10·√(dx²+dy²)) tenths, travel time = distance', () => {
    const problem = fixtureProblem();
    problem.travelSource = { kind: 'euclidean', rounding: 'trunc1' };
    problem.units = { timePerSecond: 10, distancePerReported: 10 };
    problem.locations = [
      { lat: 0, lng: 0 },
      { lat: 1, lng: 1 },
    ];
    expect(expectedLeg(problem, problem.vehicles[0]!, 0, 1)).toEqual({ distance: 14, travel: 14 });
  });

  it('euclidean round: Math.round(√(dx²+dy²)), travel time = distance', () => {
    const problem = fixtureProblem();
    problem.travelSource = { kind: 'euclidean', rounding: 'round' };
    problem.locations = [
      { lat: 0, lng: 0 },
      { lat: 3, lng: 4.4 },
    ];
    expect(expectedLeg(problem, problem.vehicles[0]!, 0, 1)).toEqual({ distance: 5, travel: 5 });
  });

  it('checkTravelMatrix flags a matrix that disagrees with the geo model', () => {
    const problem = geoProblem();
    problem.travel = {
      size: 2,
      distance: Int32Array.of(0, 1446, 1446, 0),
      durations: [Int32Array.of(0, 131, 131, 0), Int32Array.of(0, 131, 131, 0)],
    };
    problem.vehicles[1]!.speed = 1;
    expect(checkTravelMatrix(problem)).toEqual([]);
    problem.travel.durations[0]![1] = 130;
    expect(checkTravelMatrix(problem)).toEqual([
      expect.stringMatching(/travel matrix 0->1 \(vehicle 0\): distance 1446\/travel 130, expected 1446\/131/),
    ]);
  });

  it('a plan on a geo problem is checked against the re-derived legs, not the stored matrix', () => {
    const problem = fixtureProblem();
    problem.travelSource = { kind: 'geo', roadFactor: 1.3, baseSpeedKmh: 40, traffic: 1 };
    const violations = checkPlan(problem, fixturePlan());
    expect(violations.some((v) => /stop 0 "A".*expected travel \d+\/distance \d+/.test(v))).toBe(true);
  });
});

describe('break pauses and clocks', () => {
  it('travel overlapping a break is paused for its length', () => {
    const van = fixtureProblem().vehicles[0]!; // break 10:00–10:30
    expect(driveArrival(van, 35700, 600)).toBe(38100);
    expect(driveArrival(van, 36500, 600)).toBe(38400); // departs inside the break: waits for its end
    expect(driveArrival(van, 37800, 600)).toBe(38400);
    expect(driveArrival(van, 35000, 1000)).toBe(36000); // arrives exactly as the break begins
  });

  it('HH:mm keeps counting hours past midnight and rounds seconds down', () => {
    expect(clockText(0)).toBe('00:00');
    expect(clockText(8 * 3600 + 59)).toBe('08:00');
    expect(clockText(25 * 3600 + 30 * 60)).toBe('25:30');
  });
});
