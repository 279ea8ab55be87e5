// A kept answer's UTF-8 length is remembered, and never handed to another text: the Content-Length
// of every answer and the size of every journal entry come from it.
import { utf8Bytes } from '../../src/text-bytes';

describe('utf8Bytes', () => {
  it('is the UTF-8 length, for short and long texts, ASCII or not', () => {
    for (const text of ['', 'abc', 'é', '€uro', '😀', 'a'.repeat(5000), 'é'.repeat(3000), '😀'.repeat(700) + 'x']) {
      expect(utf8Bytes(text)).toBe(Buffer.byteLength(text));
      expect(utf8Bytes(text)).toBe(Buffer.byteLength(text));
    }
  });

  it('tells apart texts of the same length whose bytes differ, asked in turn', () => {
    const ascii = 'a'.repeat(2000);
    const accented = 'é'.repeat(1000) + 'a'.repeat(1000);
    const lateAccent = 'a'.repeat(1999) + 'é';
    // Built afresh each time: equal texts that are other string objects.
    const again = (s: string) => [...s].join('');
    for (let round = 0; round < 3; round++) {
      expect(utf8Bytes(ascii)).toBe(2000);
      expect(utf8Bytes(accented)).toBe(3000);
      expect(utf8Bytes(lateAccent)).toBe(2001);
      expect(utf8Bytes(again(accented))).toBe(3000);
      expect(utf8Bytes(again(ascii))).toBe(2000);
    }
  });

  it('stays right past the texts it remembers, and for texts too large to hold', () => {
    const texts = Array.from({ length: 9 }, (_, i) => 'é'.repeat(i * 10) + 'a'.repeat(2000 - i * 10));
    for (let round = 0; round < 2; round++) for (const [i, t] of texts.entries()) expect(utf8Bytes(t)).toBe(2000 + i * 10);
    const huge = 'é'.repeat(1024 * 1024 + 1);
    expect(utf8Bytes(huge)).toBe(2 * (1024 * 1024 + 1));
    expect(utf8Bytes(huge)).toBe(2 * (1024 * 1024 + 1));
  });
});
