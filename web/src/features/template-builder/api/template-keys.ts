/** Query keys of the template builder; the `template` stream category invalidates `all`. */
export const templateKeys = {
  all: ['templates'] as const,
  lists: () => [...templateKeys.all, 'list'] as const,
  list: () => [...templateKeys.lists(), 'all'] as const,
};
