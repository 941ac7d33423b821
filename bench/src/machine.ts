import os from 'node:os';

export interface Machine {
  cpu: string;
  cores: string;
  memory: string;
  os: string;
  node: string;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: String(cpus.length),
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
  };
}
