/** A task is text a person wrote: a mebibyte is far more than any, and less than a model's context. */
export const MAX_PROMPT_FILE_BYTES = 1024 * 1024;
