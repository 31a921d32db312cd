/** The Security Scheme Edition B declares itself: the panel's API tokens. */
export const PANEL_API_TOKEN_SCHEME = 'panelApiToken';

/**
 * The path segment of signed file URLs, after the attachments path:
 * `<rootPath>/attachments/signed/<sealed key>/<filename>`. The blob key is sealed (encrypted),
 * so a signed URL never discloses the permanent one.
 */
export const SIGNED_SEGMENT = 'signed';

/** The process warning codes of Edition B's boot checks. */
export const EMPTY_DEFAULT_PERMISSIONS_WARNING = 'PANEL_WARN_EMPTY_DEFAULT_PERMISSIONS';
export const MISSING_DIGEST_INDEX_WARNING = 'PANEL_WARN_MISSING_TOKEN_DIGEST_INDEX';
