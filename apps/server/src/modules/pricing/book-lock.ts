/**
 * The advisory lock key of a seller's book (its book prices and its child prices):
 * usage_record holds it shared while it reads the books above a batch, a price change holds it
 * exclusively, so a change takes effect after the batches that read the book it replaces (and
 * its time is read after them).
 */
export const BOOK_LOCK_CLASS = 7031;
