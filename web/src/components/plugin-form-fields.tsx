import { Suspense, useMemo } from 'react';
import { useGateContext } from '../auth/auth-provider';
import { visibleConnectionSections, visibleFormFields, type CoreForm, type FormField } from '../pages/registry';

/** The plugins' fields of a core form that the signed-in user's plan and profile let through. */
export function usePluginFormFields(form: CoreForm): FormField[] {
  const gates = useGateContext();
  return useMemo(() => (gates ? visibleFormFields(gates, form) : []), [gates, form]);
}

/** The fields' values of a loaded record, for the form's initial values. */
export function pluginFieldsOf(fields: FormField[], record: object): Record<string, unknown> {
  // null as undefined: an empty select shows its placeholder.
  return Object.fromEntries(fields.map((field) => [field.name, (record as Record<string, unknown>)[field.name] ?? undefined]));
}

/** The fields' values of the submitted form, for the API's body (a cleared select is null). */
export function pluginFieldValues(fields: FormField[], values: object): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field.name, (values as Record<string, unknown>)[field.name] ?? null]));
}

/** Renders the plugins' fields inside the core form (each its own Form.Item). */
export function PluginFormFields({ fields }: { fields: FormField[] }) {
  return (
    <Suspense fallback={null}>
      {fields.map(({ name, component: Field }) => (
        <Field key={name} name={name} />
      ))}
    </Suspense>
  );
}

/** The plugins' sections of a saved connection's dialog, for this user. */
export function PluginConnectionSections({ connectionId }: { connectionId: number }) {
  const gates = useGateContext();
  const sections = useMemo(() => (gates ? visibleConnectionSections(gates) : []), [gates]);
  return (
    <Suspense fallback={null}>
      {sections.map(({ key, component: Section }) => (
        <Section key={key} connectionId={connectionId} />
      ))}
    </Suspense>
  );
}
