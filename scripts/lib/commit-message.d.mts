export const SUBJECT_MAX: number;
export function commitMessageProblems(message: string): string[];
