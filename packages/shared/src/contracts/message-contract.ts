import type { z } from 'zod';

/** A message type: its routing key (`contact.created.v1`) and the schema producer and consumer share. */
export interface MessageContract<S extends z.ZodType = z.ZodType> {
  type: string;
  schema: S;
}

export type MessageOf<C extends MessageContract> = z.output<C['schema']>;

export const defineContract = <S extends z.ZodType>(type: string, schema: S): MessageContract<S> => ({ type, schema });
