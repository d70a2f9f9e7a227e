import { mergeCustomProperties, distinctTags, sameProperties } from '../src/domain/contact-input';
describe('contact input rules', () => {
  it('merges custom properties key by key, null removing, without prototype tricks', () => {
    const merged = mergeCustomProperties(
      { a: 1, b: 'x' },
      JSON.parse('{"b": null, "c": true, "__proto__": "p"}') as Record<string, string | boolean | null>,
    );
    expect(merged).toEqual(JSON.parse('{"a": 1, "c": true, "__proto__": "p"}'));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(sameProperties({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameProperties({ a: 1 }, { a: '1' })).toBe(false);
  });

  it('keeps the first spelling of tags that differ only in case', () => {
    expect(distinctTags(['VIP', 'vip', 'Beta', 'ViP'])).toEqual(['VIP', 'Beta']);
  });
});
