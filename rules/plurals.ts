import { formatCount } from "./prices";

/**
 * Spanish number agreement, for every count the shop shows: the singular for exactly one (and
 * minus one), the plural for everything else, zero included («0 entradas», «1 entrada», «2
 * entradas»). Words and verbs alike: «queda»/«quedan», «coincide»/«coinciden».
 */
export function plural(n: number, one: string, other: string): string {
  return Math.abs(n) === 1 ? one : other;
}

/** A count and its noun, the number written as the shop writes numbers: «1 oferta», «12.345 ofertas». */
export function countOf(n: number, one: string, other: string): string {
  return `${formatCount(n)} ${plural(n, one, other)}`;
}
