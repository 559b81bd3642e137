import { API_SCOPES, z } from 'atende/plugin';

export const createApiTokenSchema = z.object({
  name: z.string().trim().min(1, 'Required').max(100, 'Too Long!'),
  scopes: z
    .array(z.enum(API_SCOPES as [string, ...string[]]))
    .min(1, 'Choose at least one scope')
    .transform((scopes) => [...new Set(scopes)].sort()),
});

export type CreateApiTokenInput = z.infer<typeof createApiTokenSchema>;
