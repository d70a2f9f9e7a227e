/**
 * A value made once per owner object and kept while the owner lives: the group commit of a pool
 * or of a broker connection, which every caller holding that owner shares. A service has one
 * owner of each kind; tests may start several.
 */
export function onePerOwner<O extends object, V>(make: (owner: O) => V): (owner: O) => V {
  const made = new WeakMap<O, V>();
  return (owner) => {
    let value = made.get(owner);
    if (value === undefined) {
      value = make(owner);
      made.set(owner, value);
    }
    return value;
  };
}
