export function tablesWritten(text: string): string[];
export function checkArchitecture(root: string): {
  problems: string[];
  modules: number;
  tables: number;
  triggers: number;
};
export function checkRoleNumbers(repoRoot: string, dirs?: string[]): string[];
