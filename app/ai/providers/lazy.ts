/**
 * An SDK client created on first use. The SDKs are large (tens of MB of
 * memory each) and many installations use one provider or none, so the
 * server neither loads nor builds a client until a request needs it.
 */
export function lazySdk<T>(create: () => Promise<T>) {
  let client: Promise<T> | undefined;
  return () => {
    client ??= create().catch((error) => {
      client = undefined;
      throw error;
    });
    return client;
  };
}
