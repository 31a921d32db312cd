/** The largest record id: ids are PostgreSQL `integer`s, so a larger one can name no record. */
export const MAX_RECORD_ID = 2_147_483_647;
