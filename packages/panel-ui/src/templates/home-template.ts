/** The panel's home screen: what the panel holds. */
export const HOME_TEMPLATE = `<h1>Panel</h1>
{{#if user}}<p>Signed in as {{user.displayName}}.</p>{{else}}<p><a href="{{signInPath}}">Sign in</a> to manage the panel.</p>{{/if}}
<h2>Resources</h2>
<p>Each resource holds one kind of record: {{#each records}}{{this}}{{#unless @last}}, {{/unless}}{{/each}}.</p>
<ul>
{{#each resources}}  <li>{{label}} — <code>{{apiPath}}</code></li>
{{/each}}</ul>
`;
