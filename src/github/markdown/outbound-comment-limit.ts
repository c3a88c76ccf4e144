/**
 * The most characters GitHub takes in an issue comment or pull request body. Past it the REST API
 * refuses the write with 422 "body is too long (maximum is 65536 characters)" (the error the create
 * and update comment endpoints give, https://docs.github.com/rest/issues/comments). The docs page
 * does not state the number; the error text is the source (checked 2026-11-23, also in
 * github.com/orgs/community/discussions/41331). The fake GitHub server refuses longer bodies.
 */
export const GITHUB_COMMENT_LIMIT = 65_536;
