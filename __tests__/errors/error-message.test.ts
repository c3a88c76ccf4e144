import { errorFirstLine, errorMessage, namedErrorMessage } from '../../src/errors/error-message.js';

it('an Error reads as its message, anything else as its string', () => {
  expect(errorMessage(new TypeError('no such ref'))).toBe('no such ref');
  expect(errorMessage('plain text')).toBe('plain text');
  expect(errorMessage(42)).toBe('42');
  expect(errorMessage(undefined)).toBe('undefined');
});

it('the first line drops what follows it and the spaces around it', () => {
  expect(errorFirstLine(new Error('  upload failed \nrequest id: 7f3c\nretry later'))).toBe('upload failed');
  expect(errorFirstLine('one line')).toBe('one line');
});

it('the named form starts with the class of the error', () => {
  expect(namedErrorMessage(new RangeError('offset past the end'))).toBe('RangeError: offset past the end');
  expect(namedErrorMessage({ toString: () => 'odd throw' })).toBe('odd throw');
});
