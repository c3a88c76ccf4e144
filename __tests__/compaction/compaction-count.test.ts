import { countCompactions, describeCompactionCount } from '../../src/compaction/compaction-count.js';

describe('countCompactions', () => {
  it('counts every layer, spills included, and the total is their sum', () => {
    const count = countCompactions([
      { layer: 'micro' },
      { layer: 'spill' },
      { layer: 'micro' },
      { layer: 'auto' },
      { layer: 'fallback' },
      { layer: 'manual' },
      { layer: 'spill' }
    ]);
    expect(count.byLayer).toEqual({ micro: 2, auto: 1, manual: 1, spill: 2, fallback: 1 });
    expect(count.total).toBe(7);
    expect(describeCompactionCount(count)).toBe('7 (micro 2, auto 1, manual 1, spill 2, fallback 1)');
  });

  it('describes an empty log as 0 and leaves out layers that did not fire', () => {
    expect(describeCompactionCount(countCompactions([]))).toBe('0');
    expect(describeCompactionCount(countCompactions([{ layer: 'auto' }, { layer: 'auto' }]))).toBe(
      '2 (auto 2)'
    );
  });
});
