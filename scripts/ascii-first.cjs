'use strict';
// path-to-regexp tells the characters of a route's parameter names with two expressions of Unicode properties
// (ID_Start, ID_Continue). Making such an expression builds its set of characters from ICU's tables, some 2.2 M
// instructions each, at every start that loads the module. In the bundle (scripts/bundle.cjs), a character below
// 128 is told by its ASCII subset (the same answer: ID_Start's ASCII characters are the letters, ID_Continue's the
// letters, digits and _), and the real expression is made on the first character beyond ASCII. Its third such
// expression, of whole names, serves only to write a path back out: it is made on its first use.

/** path-to-regexp's declarations, and what the bundle has instead. */
const DECLARATIONS = {
  'const ID_START = /^[$_\\p{ID_Start}]$/u;': 'const ID_START = asciiFirst(/^[$_A-Za-z]$/, () => /^[$_\\p{ID_Start}]$/u);',
  'const ID_CONTINUE = /^[$\\u200c\\u200d\\p{ID_Continue}]$/u;': 'const ID_CONTINUE = asciiFirst(/^[$0-9A-Z_a-z]$/, () => /^[$\\u200c\\u200d\\p{ID_Continue}]$/u);',
  'const ID = /^[$_\\p{ID_Start}][$\\u200c\\u200d\\p{ID_Continue}]*$/u;': 'const ID = onFirstTest(() => /^[$_\\p{ID_Start}][$\\u200c\\u200d\\p{ID_Continue}]*$/u);',
};

/**
 * An object whose `test` answers as the full expression's: the value is made a string as RegExp#test makes it,
 * and one code point is one or two UTF-16 units, so a longer string (`undefined` past a path's end) matches
 * neither expression.
 */
function asciiFirst(ascii, full) {
  let made;
  return {
    test(value) {
      const s = `${value}`;
      return s.length === 1 && s.charCodeAt(0) < 128 ? ascii.test(s) : s.length <= 2 && (made ??= full()).test(s);
    },
  };
}

/** An object whose `test` is the expression's, made at the first test. */
function onFirstTest(full) {
  let made;
  return {
    test(value) {
      return (made ??= full()).test(value);
    },
  };
}

/** path-to-regexp's module text with the declarations replaced; throws if it no longer has them. */
function withAsciiFirst(text, file) {
  for (const [from, to] of Object.entries(DECLARATIONS)) {
    if (!text.includes(from)) throw new Error(`${file} no longer declares ${from}`);
    text = text.replace(from, to);
  }
  return `${text}\n${asciiFirst.toString()}\n${onFirstTest.toString()}\n`;
}

module.exports = { DECLARATIONS, asciiFirst, onFirstTest, withAsciiFirst };
