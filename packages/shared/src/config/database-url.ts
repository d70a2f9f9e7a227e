/**
 * The database a service uses: its own `DATABASE_URL` when set, otherwise the database named
 * `${DB_PREFIX}${service}` on the server `POSTGRES_URL` names.
 */
export function serviceDatabaseUrl(options: {
  service: string;
  databaseUrl?: string | undefined;
  postgresUrl: string;
  dbPrefix: string;
}): string {
  if (options.databaseUrl) return options.databaseUrl;
  const url = new URL(options.postgresUrl);
  url.pathname = `/${options.dbPrefix}${options.service}`;
  return url.toString();
}
