import { checkout } from "./checkout";
import { flash } from "./flash";
import { lighthouse } from "./lighthouse";
import { reminders } from "./reminders";
import { scale } from "./scale";
import type { BenchSection } from "./support/section";
import { ssr } from "./ssr";
import { statements } from "./statements";
import { throughput } from "./throughput";
import { till } from "./till";
import { weight } from "./weight";

/**
 * The bench's sections, in the order they run (those on the shop first, then the others). A new
 * section is a file that exports a BenchSection (support/section.ts) and one line here.
 */
export const SECTIONS: BenchSection[] = [weight, ssr, throughput, lighthouse, checkout, flash, scale, statements, till, reminders];
