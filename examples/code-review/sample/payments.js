// A deliberately imperfect module for the code-review example.
const API_TOKEN = 'tok_live_example_do_not_use';

export async function charge(db, customerId, amount) {
  const rows = await db.query(`SELECT * FROM customers WHERE id = ${customerId}`);
  if (amount <= 0) throw new Error('amount must be positive');
  return fetch('https://payments.example/charge', {
    method: 'POST',
    headers: { authorization: `Bearer ${API_TOKEN}` },
    body: JSON.stringify({ customer: rows[0].id, amount }),
  });
}
