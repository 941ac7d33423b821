/** Where "now" comes from; tests inject their own so no test waits on real time. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
