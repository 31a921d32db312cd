/**
 * The resource × verb checkboxes, posted as `grants[]` = `<route_key>:<verb>`. Each checkbox
 * has a label (visually hidden: the row and column headers say it to sighted users).
 */
export const GRANT_MATRIX_PARTIAL = `<fieldset>
  <legend>{{legend}}</legend>
  {{#if hint}}<p class="hint" id="grants-hint">{{hint}}</p>{{/if}}
  {{#if error}}<p class="error" id="grants-error" role="alert">{{error}}</p>{{/if}}
  <div class="table-scroll">
  <table class="matrix">
    <thead><tr><th scope="col">Resource</th>{{#each verbs}}<th scope="col">{{this}}</th>{{/each}}</tr></thead>
    <tbody>
    {{#each rows}}
      <tr>
        <th scope="row">{{humanName}}</th>
        {{#each cells}}
        <td><label for="{{id}}"><span class="visually-hidden">{{../humanName}} {{verb}}</span></label><input type="checkbox" id="{{id}}" name="grants[]" value="{{value}}"{{#if checked}} checked{{/if}}></td>
        {{/each}}
      </tr>
    {{/each}}
    </tbody>
  </table>
  </div>
</fieldset>
`;
