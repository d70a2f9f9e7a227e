import type { z } from 'zod';

/** Turns zod issues into readable sentences for a 422 `errors` array: "email: is invalid". */
export function zodMessages(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}
