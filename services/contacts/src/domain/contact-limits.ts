import { invalidContact } from './contact.errors';
import type { CustomProperties } from './contact';

/**
 * What one contact may hold. A contact is copied into every message about it and into automation's
 * projection, so its size is bounded: at most about 45 KB whatever the client sends (docs/api.md).
 */
export const CONTACT_LIMITS = {
  /** The interface's limit. */
  customProperties: 50,
  customPropertyKeyLength: 255,
  /** Characters in one string value. */
  customPropertyValueLength: 2048,
  /** Bytes of all custom properties as JSON (UTF-8). */
  customPropertiesBytes: 32 * 1024,
  tagsPerContact: 100,
  tagNameLength: 100,
  /** Tags named in one request. */
  tagsPerRequest: 100,
  textLength: 255,
} as const;

/** Refuses custom properties (as they will be stored) or a tag count past the contact's limits. */
export function checkContactLimits(contact: { customProperties?: CustomProperties; tagCount?: number }): void {
  const problems: string[] = [];
  const properties = contact.customProperties;
  if (properties && Object.keys(properties).length > CONTACT_LIMITS.customProperties) {
    problems.push(`custom_properties must have at most ${CONTACT_LIMITS.customProperties} entries`);
  }
  if (properties && Buffer.byteLength(JSON.stringify(properties)) > CONTACT_LIMITS.customPropertiesBytes) {
    problems.push(`custom_properties must be at most ${CONTACT_LIMITS.customPropertiesBytes} bytes as JSON`);
  }
  if ((contact.tagCount ?? 0) > CONTACT_LIMITS.tagsPerContact) {
    problems.push(`tags must be at most ${CONTACT_LIMITS.tagsPerContact} per contact`);
  }
  if (problems.length > 0) throw invalidContact(problems);
}
