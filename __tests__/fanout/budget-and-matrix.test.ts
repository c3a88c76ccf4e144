import { MIN_SHARD_BUDGET_USD, splitBudget } from '../../src/fanout/budget.js';
import { MATRIX_JOB_LIMIT, MAX_MATRIX_OUTPUT_BYTES, matrixWaves } from '../../src/fanout/matrix.js';

describe('splitBudget', () => {
  it('takes each shard its share of the cap in advance, rounded down to the cent', () => {
    const split = splitBudget(10, 3);
    expect(split.perShardUsd).toBe(3.33);
    expect(split.perShardUsd * 3).toBeLessThanOrEqual(10);
    expect(split.unassignedUsd).toBeCloseTo(0.01, 10);
  });

  it('refuses a cap too small for the pilot, saying how much the pilot needs', () => {
    expect(() => splitBudget(0.08, 40, { pilot: 2 })).toThrow(
      /too small for the pilot of 2 shard\(s\).*\$0\.10 in all\. Raise --max-total-usd/
    );
  });

  it('refuses a cap that leaves a shard under the minimum, naming the total needed', () => {
    expect(() => splitBudget(1, 40)).toThrow(/gives each \$0\.02.*at least \$2\.00/);
    expect(splitBudget(40 * MIN_SHARD_BUDGET_USD, 40).perShardUsd).toBe(MIN_SHARD_BUDGET_USD);
  });

  it('refuses a spent cap (a resume with nothing left)', () => {
    expect(() => splitBudget(0, 2)).toThrow(/Nothing is left of the total cap/);
  });
});

describe('matrixWaves', () => {
  const ids = (count: number) =>
    Array.from({ length: count }, (_, index) => `shard-${String(index + 1).padStart(4, '0')}`);

  it('fits 256 shards in one wave and runs 600 in three, each well under the output limit', () => {
    expect(matrixWaves(ids(MATRIX_JOB_LIMIT))).toHaveLength(1);
    const waves = matrixWaves(ids(600));
    expect(waves.map((wave) => (JSON.parse(wave) as { shard: string[] }).shard.length)).toEqual([
      256, 256, 88
    ]);
    expect(JSON.parse(waves[2]!)).toEqual({ shard: ids(600).slice(512) });
    for (const wave of waves) expect(wave.length * 2).toBeLessThan(MAX_MATRIX_OUTPUT_BYTES);
    expect(MAX_MATRIX_OUTPUT_BYTES).toBeLessThan(1024 * 1024);
  });

  it('refuses a wave whose JSON would not fit the kept output size', () => {
    const long = Array.from({ length: 256 }, (_, index) => `shard-${index}-${'x'.repeat(200)}`);
    expect(() => matrixWaves(long)).toThrow(/over the 65536 kept for a job output/);
    expect(() => matrixWaves([])).toThrow(/at least one shard/);
  });
});
