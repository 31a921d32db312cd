import { resourceNameFromAssociation, resourceNaming } from '@panel/core';
import { BASE_CONTROLLER_STEM } from '@panel/api';
import { shellArgument } from '../text/quoting.js';

/**
 * The resource name of a table: `invoice_line` → `InvoiceLine`, `books` → `Book`. What is not a
 * letter or digit separates words (`o'brien` → `OBrien`, `../evil` → `Evil`), and a leading digit
 * gets a prefix (`2fa_codes` → `Table2faCode`), so the class and file names it gives are always
 * an identifier and a plain file name; undefined when no letter or digit is left (`_`, `😀`).
 */
export function resourceNameOfTable(table: string): string | undefined {
  const name = resourceNameFromAssociation(table.replace(/[^A-Za-z0-9]+/g, '_'));
  if (name === '') return undefined;
  return /^[0-9]/.test(name) ? `Table${name}` : name;
}

/** Why `init` cannot serve `table` as the resource `name` (undefined when no name was derived), or undefined when it can. */
export function tableNameProblem(table: string, name: string | undefined): string | undefined {
  const fix = `Fix: panel-api resource <Name> --from-table ${shellArgument(table)}`;
  if (name === undefined) return `its name gives no resource name (no letter or digit). ${fix}`;
  if (resourceNaming(name).controllerFile === BASE_CONTROLLER_STEM) return `its resource ${name} would get the base controller's file (${BASE_CONTROLLER_STEM}). ${fix}`;
  return undefined;
}
