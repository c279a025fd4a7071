import type { ReactNode } from "react";

/** One column: its header, what each row shows under it, and an optional class for that cell. */
export type DataColumn<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
};

/**
 * A portal list as a table that turns into one card per row on a phone (.stack-table), each
 * cell labelled with its column's header, so the card's labels always match the headers.
 * The caption names the table for screen readers.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
}) {
  return (
    <div className="table-scroll">
      <table className="data-table stack-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.header} data-label={c.header} className={c.className}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
