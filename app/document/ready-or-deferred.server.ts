/**
 * A deferred loader value that is already known (a read the public cache answered from memory)
 * goes out as a plain value: the page renders it in place instead of streaming a <Suspense>
 * boundary, a second flush and the promise's data script for it. A value still on its way stays a
 * promise, so a slow API never holds the page back.
 */
export async function readyOrDeferred<T>(value: Promise<T>): Promise<T | Promise<T>> {
  const pending = Symbol("pending");
  // setImmediate runs after every microtask: a promise that settles from memory has settled by then.
  const first = await Promise.race([value, new Promise<typeof pending>((resolve) => setImmediate(() => resolve(pending)))]);
  return first === pending ? value : (first as T);
}
