/**
 * A map of at most `limit` entries that forgets the least recently used first: the memory every
 * in-process cache here keeps (gzips and encodings of texts sent, page starts, map pictures,
 * route matches), bounded whatever keys a crawler tries. A Map iterates in insertion order, so
 * using an entry moves it to the end and the first one is the one to drop.
 */
export class Recent<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly limit: number) {}

  /** The value, which is now the most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Whether the key is kept; unlike get, this does not count as a use. */
  has(key: K): boolean {
    return this.#entries.has(key);
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.limit) this.#entries.delete(this.#entries.keys().next().value as K);
    this.#entries.set(key, value);
  }

  get size(): number {
    return this.#entries.size;
  }
}
