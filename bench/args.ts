import { STRATEGIES } from './strategies/index.js';

export interface BenchArgs {
  readonly json: boolean;
  readonly sizes: number[];
  readonly strategies: string[];
  readonly chart: string | undefined;
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const value = (flag: string) => {
    const index = argv.indexOf(flag);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const sizes = (value('--sizes') ?? '100,300,1000').split(',').map(Number);
  if (sizes.some((size) => !Number.isInteger(size) || size < 2))
    throw new Error(
      `--sizes takes whole numbers of turns of at least 2, e.g. --sizes 100,300; got ${value('--sizes')}`
    );
  const known = STRATEGIES.map((strategy) => strategy.name);
  const strategies = (value('--strategies') ?? known.join(',')).split(',');
  const unknown = strategies.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new Error(`unknown strategies ${unknown.join(', ')}; known: ${known.join(', ')}`);
  return { json: argv.includes('--json'), sizes, strategies, chart: value('--chart') };
}
