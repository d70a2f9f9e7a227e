import type { z } from 'zod';

/**
 * Turns zod issues into readable sentences for a 422 `errors` array, the field first:
 * "email is invalid", "custom_properties.plan must be at most 2048 characters". One wording style
 * for every service's 422 (docs/api.md).
 */
export function zodMessages(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path} ${issue.message}` : issue.message;
  });
}
