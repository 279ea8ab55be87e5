import { span } from '../../src/cli/story-file';

describe('span of a story file', () => {
  it('reads every duration a scenario file may use, and ignores what is no duration', () => {
    expect(span({ Steps: [{ After: '500ms' }, { After: '2s' }] })).toBe('2 steps over 2.0 s of sandbox time');
    expect(span({ Steps: [{ After: '1.5m' }] })).toBe('1 step over 90.0 s of sandbox time');
    expect(span({ Steps: [{ After: 'soon' }, {}] })).toBe('2 steps over 0.0 s of sandbox time');
    expect(span({})).toBe('0 steps over 0.0 s of sandbox time');
  });
});
