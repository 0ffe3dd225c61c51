import { functionSources } from '../../server/db/sql-functions';

export interface SqlFunctionText {
  file: string;
  name: string;
  /** The text between the dollar quotes, as PostgreSQL keeps it (pg_proc.prosrc). */
  body: string;
}

const DEFINITION = /CREATE OR REPLACE FUNCTION (\w+)\([\s\S]*?\bAS \$\$([\s\S]*?)\$\$;/g;

/** Every function the files of server/db/functions define, with its body. */
export function sqlFunctionTexts(): SqlFunctionText[] {
  return functionSources().flatMap(({ file, text }) => [...text.matchAll(DEFINITION)].map((match) => ({ file, name: match[1]!, body: match[2]! })));
}
