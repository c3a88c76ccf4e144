/**
 * The most characters GitHub takes in an issue comment or pull request body. Past it the REST API
 * refuses the write with 422 "body is too long (maximum is 65536 characters)" (the error the create
 * and update comment endpoints give, https://docs.github.com/rest/issues/comments).
 */
export const GITHUB_COMMENT_LIMIT = 65_536;
