import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countLines, countWords } from '../src/word-count.js';

test('counts words separated by single spaces', () => {
  assert.equal(countWords('the quick brown fox'), 4);
});

test('counts words separated by runs of whitespace and line breaks', () => {
  assert.equal(countWords('the  quick\tbrown\n\nfox  '), 4);
});

test('an empty or blank text has no words', () => {
  assert.equal(countWords(''), 0);
  assert.equal(countWords('   \n'), 0);
});

test('counts lines, ignoring one trailing newline', () => {
  assert.equal(countLines('a\nb\nc\n'), 3);
  assert.equal(countLines('a'), 1);
  assert.equal(countLines(''), 0);
});
