/** What a rule is given to learn whether its answer depends on the record: a stand-in record that notices being read. */
export const PER_RECORD = Symbol('per record');

/** A stand-in record that notices being read: what a rule is given to learn whether it depends on the record. */
export function noticingRecord(): { readonly record: Record<string, unknown>; readonly read: () => boolean } {
  let read = false;
  const notice = () => {
    read = true;
  };
  const record = new Proxy(Object.create(null) as Record<string, unknown>, {
    get() {
      notice();
      return undefined;
    },
    has() {
      notice();
      return false;
    },
    ownKeys() {
      notice();
      return [];
    },
    getOwnPropertyDescriptor() {
      notice();
      return undefined;
    },
  });
  return { record, read: () => read };
}

/**
 * Runs `rule` with a stand-in record that notices being read: its answer, or `PER_RECORD`
 * when it read a property of the record (then only a record can answer it).
 */
export function probeRule<T>(rule: (record: Record<string, unknown>) => T): T | typeof PER_RECORD {
  const probe = noticingRecord();
  try {
    const answer = rule(probe.record);
    return probe.read() ? PER_RECORD : answer;
  } catch (error) {
    // A rule that fails on the stand-in's missing values depends on the record.
    if (probe.read()) return PER_RECORD;
    throw error;
  }
}
