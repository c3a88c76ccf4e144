import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topWords } from '../src/top-words.js';

test('returns the most frequent words first', () => {
  assert.deepEqual(topWords('b a b c b a', 2), [
    ['b', 3],
    ['a', 2]
  ]);
});

test('ignores case and punctuation', () => {
  assert.deepEqual(topWords('Yes! yes, YES.', 1), [['yes', 3]]);
});
