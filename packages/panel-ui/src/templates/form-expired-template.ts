/** A refused form (expired CSRF token). */
export const FORM_EXPIRED_TEMPLATE = `<h1>The form expired</h1>
<p role="alert">The form expired. Go back, reload the page and try again.</p>
`;
