// English: the source text of the seeded pages. Other languages translate this file key by key.
import { fundingFeeTable, tradingFeeTable } from '../fees.ts';
import type { SeedLanguagePack } from '../items.ts';

export const en: SeedLanguagePack = {
  categories: {
    3: 'Notices',
    5: 'News',
    9: 'About',
    10: 'Guides',
    19: 'Fees',
    21: 'Risk',
    29: 'Legal',
    30: 'Frequently asked questions',
    31: 'Our commitments',
    32: 'Built with',
  },
  items: {
    'notice.welcome': {
      title: 'Welcome to Fairex',
      abstract: 'What you can do here today, and the rules every part of the exchange follows.',
      content: `
<p>Fairex is a crypto exchange built on one rule: every amount is exact and every movement of money is recorded twice, once on each side.</p>
<h3>What you can do</h3>
<ul>
<li>Trade spot pairs against USDT on a real order book.</li>
<li>Trade leveraged contracts, and seconds contracts that settle on recorded market prices by a published rule, with a proof.</li>
<li>Subscribe to token sales (ICO), and hold mining and staking products.</li>
<li>Buy and sell with other users for fiat money in P2P trade.</li>
<li>Trade from your own programs with API keys.</li>
<li>Move funds between your wallets, deposit and withdraw.</li>
</ul>
<h3>Before you start</h3>
<p>Read the <a href="/noticeList">notices</a>, the fee pages and the risk disclosures in the footer. Leverage and seconds contracts can lose you your whole stake quickly.</p>`,
    },
    'notice.prices': {
      title: 'Where the prices on Fairex come from',
      abstract:
        'Every price you see is a price from this exchange’s order book or its recorded reference price.',
      content: `
<p>The last price, the order book and every candle of trades on Fairex come from orders matched on this exchange. Where no user has traded a pair yet, the screens show its recorded mark price marked “M”, and its chart draws the recorded index price, labelled as such, until the first trade. No price is smoothed, shifted or drawn by hand.</p>
<h3>Liquidity</h3>
<p>A market-making account quotes buy and sell orders on each pair. It trades through the same matching engine as every user, with no special treatment. Its orders only ever wait in the book: it never takes a user’s order. Its quotes follow a reference price source chosen by the operator of this exchange.</p>
<h3>Reference price</h3>
<p>Leveraged contracts and seconds contracts use the mark price: the reference price, recorded in the exchange’s journal at the moment it arrives. A settled seconds contract shows the two recorded prices it was settled on.</p>
<p>On a new installation the reference source is a simulator: prices move like a market but do not follow any outside exchange. The operator updates this notice when a real market feed is connected.</p>`,
    },
    'notice.security': {
      title: 'We will never ask for your password or verification code',
      abstract: 'Keep your login details to yourself. Nobody from Fairex needs them.',
      content: `
<p>Nobody working for Fairex will ask for your password, a verification code sent to you, or access to your device. There is no master password and no universal code: your account opens only with your own details.</p>
<ul>
<li>Type the exchange’s address yourself or use a bookmark; check it before you log in.</li>
<li>Use a password you use nowhere else, 6 to 16 characters, letters and digits.</li>
<li>Log out on shared computers. Logging out ends the session on the server, not only in the browser.</li>
</ul>
<p>If you think someone else has used your account, change your password at once: that ends every other session.</p>`,
    },
    'news.opening': {
      title: 'Spot trading on one exact ledger',
      abstract:
        'Every balance on Fairex is a whole number of the smallest unit, and every currency sums to zero.',
      content: `
<p>Fairex keeps every balance as a whole number of the currency’s smallest unit: satoshis for bitcoin, millionths for USDT. Prices are whole numbers of a price step. Nothing is ever rounded away in between.</p>
<p>Each movement of funds is a transfer between two accounts, with a reason. Deposits come from an “outside world” account and withdrawals go back to it, so for every currency all accounts together sum to exactly zero. A balance can never go below zero.</p>
<p>Read <a href="{{item:notice.prices}}">where the prices come from</a>, and the <a href="{{item:risk.leverage}}">risk disclosure for leverage</a> before trading with leverage.</p>`,
    },
    'news.seconds-settlement': {
      title: 'Seconds contracts settle on the recorded market price alone',
      abstract:
        'No risk control by user, no chosen winners: up wins when the price at expiry is above the price at entry.',
      content: `
<p>A seconds contract opens at the mark price recorded when it is accepted and closes at the mark price in force at its expiry instant. Up wins when the closing price is higher, down wins when it is lower, and an equal price returns the stake.</p>
<p>Nothing else decides the result: not your account, not the size of the stake, not a win rate. Every settled contract shows the two recorded prices it was settled on.</p>
<p>Read the <a href="{{item:risk.seconds}}">risk disclosure for seconds contracts</a> before you trade.</p>`,
    },
    'about.fairex': {
      title: 'About Fairex',
      abstract: 'An honest, exact, open-source crypto exchange.',
      content: `
<p>Fairex is an exchange for people who trade crypto assets: spot trading on an order book, leveraged contracts, seconds contracts, token subscriptions, mining and staking products, and the wallets that hold them.</p>
<h3>How it is built</h3>
<ul>
<li><strong>Exact money.</strong> Amounts are whole numbers of the smallest unit; no floating point touches a balance.</li>
<li><strong>Double entry.</strong> Every change is a transfer between two accounts; each currency sums to zero.</li>
<li><strong>One engine.</strong> All balances and order books live in one deterministic engine that applies commands one at a time, so nothing can be spent twice.</li>
<li><strong>Durable first.</strong> An order is confirmed only after it is written to the journal; a crash loses nothing that was confirmed.</li>
<li><strong>Honest.</strong> No invented prices, outcomes, progress bars or counters. The figures on the home page are counted from the database.</li>
</ul>
<h3>Open source</h3>
<p>The whole exchange, from the matching engine to this page, is open source. Anyone can read how an order is matched and how a balance changes.</p>`,
    },
    'about.ledger': {
      title: 'How your balance is kept',
      abstract:
        'Six wallets per currency, each with an available and a locked part, and a log of every change.',
      content: `
<p>For every currency you have six wallets: spot (change), leverage, seconds contracts, ICO, mining and staking. You move funds between them yourself with a transfer.</p>
<p>Each wallet has two parts. <strong>Available</strong> is what you can use. <strong>Locked</strong> is held for something in progress: an open order, a withdrawal under review. Cancelling the order or rejecting the withdrawal returns the locked part to available.</p>
<p>Every change is written to your account log with the balance before and after, the reason and the order, trade or withdrawal it belongs to. The log is derived from the exchange’s journal and can be rebuilt from it at any time.</p>
<p>A balance never goes below zero. If a liquidated leveraged position loses more than its margin, the difference is charged to the exchange’s insurance fund, not to you.</p>`,
    },
    'guide.deposit': {
      title: 'How to deposit',
      abstract: 'Find your deposit address, pick the right network and send only that currency to it.',
      content: `
<ol>
<li>Log in and open <a href="/new_account">Assets</a>. On the spot tab, choose <strong>Deposit</strong> next to the currency. The button appears only for currencies that can be deposited.</li>
<li>For USDT, choose the network: <strong>TRC20</strong> (Tron) or <strong>ERC20</strong> (Ethereum). Other currencies have one network.</li>
<li>Copy the address or scan the QR code with your wallet, and send the currency from there.</li>
<li>The deposit is credited to your spot wallet once the network has confirmed the transaction. It then appears in the recent records on the deposit page.</li>
</ol>
<h3>Check before you send</h3>
<ul>
<li>Send only the currency shown, on the network shown. Coins sent on another network or another currency sent to this address may be lost.</li>
<li>The address is yours alone; it can be used again for later deposits.</li>
<li>Fairex charges no deposit fee. The network fee is paid by the wallet you send from.</li>
</ul>
<p>Each transaction is credited once, and only after it is confirmed.</p>`,
    },
    'guide.withdraw': {
      title: 'How to withdraw',
      abstract: 'Enter an address and an amount; the amount is held while the withdrawal is reviewed.',
      content: `
<ol>
<li>Open <a href="/new_account">Assets</a> and choose <strong>Withdraw</strong> next to the currency.</li>
<li>Choose the network (for USDT: TRC20 or ERC20) and paste the receiving address. The address is checked against the network’s format and checksum.</li>
<li>Enter the amount. It must be at least the minimum shown on the page. The withdrawal fee is set by the exchange and shown before you confirm.</li>
<li>Submit. The amount moves from available to locked while the withdrawal is reviewed.</li>
</ol>
<p>When the withdrawal is approved, the amount less the fee is sent to your address. If it is rejected, the whole amount returns to your available balance.</p>
<p>Withdrawals are refused while open leveraged positions could not be covered by what would remain. The current minimums and fees are on the <a href="{{item:fees.funding}}">deposit and withdrawal fees</a> page.</p>`,
    },
    'guide.spot-order': {
      title: 'How to place a spot order',
      abstract: 'Limit and market orders, how they match, and how to cancel.',
      content: `
<ol>
<li>Open <a href="/dealCenter">Spot</a> and pick a pair from the market list, for example BTC/USDT.</li>
<li>Choose <strong>Limit</strong> to set your own price, or <strong>Market</strong> to trade at the best prices in the book now.</li>
<li>Enter the quantity, or use the slider to use 25%, 50%, 75% or 100% of your available balance.</li>
<li>Press <strong>Buy</strong> or <strong>Sell</strong>.</li>
</ol>
<h3>How orders match</h3>
<p>A buy order matches sell orders from the lowest price up, the oldest first at each price, as long as their price is at or below your limit. A sell order matches from the highest bid down. Each fill happens at the price of the order that was already waiting in the book.</p>
<p>The part of a limit order that does not fill waits in the book; its funds are locked. Cancel it from the current orders list to release them. A market order that cannot fill completely is cancelled for the rest.</p>
<p>The fee is taken from what you receive. See <a href="{{item:fees.trading}}">trading fees</a>.</p>`,
    },
    'fees.trading': {
      title: 'Trading fees',
      abstract: 'Maker and taker fees per spot pair, taken from what each side receives.',
      content: (facts) => `
<p>Each spot trade has a maker, whose order was waiting in the book, and a taker, whose order matched it. Each pays a percentage of what they receive: the buyer pays in the base currency, the seller in the quote currency. Completed orders show the fee paid.</p>
${tradingFeeTable(facts, ['Pair', 'Maker fee', 'Taker fee'])}
<p>Leveraged contracts have an opening fee, an entry spread and an overnight fee; the order form shows all three before you confirm. Seconds contracts have a fee on the stake that is not refunded. These rates are set per pair and shown on each trading screen.</p>
<p>This table lists the fees when this page was published. The order form always shows the fee that applies.</p>`,
    },
    'fees.funding': {
      title: 'Deposit and withdrawal fees',
      abstract: 'Deposits are free; each withdrawal pays a fixed fee and has a minimum.',
      content: (facts) => `
<p>Fairex charges no fee for deposits. Each withdrawal pays a fixed fee in the currency withdrawn, set by the exchange (never by your browser), and must be at least the minimum amount.</p>
${fundingFeeTable(facts, ['Currency', 'Networks', 'Minimum withdrawal', 'Withdrawal fee'])}
<p>This table lists the figures when this page was published. The withdrawal page always shows the minimum and fee that apply.</p>`,
    },
    'risk.leverage': {
      title: 'Risk disclosure: leverage trading',
      abstract:
        'Leveraged contracts can lose your whole margin quickly. Read how margin, fees and liquidation work.',
      content: `
<p><strong>Leveraged contracts are high-risk products. You can lose all the funds in your leverage wallet for a quote currency, and you can lose them within minutes.</strong></p>
<h3>How a contract works</h3>
<ul>
<li>You trade against the exchange, not against other users. A long gains when the price rises, a short when it falls.</li>
<li>The contract size is the number of lots times the lot size of the pair. Profit or loss is the price difference times the contract size.</li>
<li>The margin is the contract value divided by the multiple you choose. A higher multiple needs less margin, so the same price move is a larger share of your margin: at 10x, a 1% move against you costs 10% of the margin.</li>
<li>Your entry price includes a spread above the mark price for a long and below it for a short.</li>
</ul>
<h3>Costs</h3>
<ul>
<li>An opening fee on the contract value, not refunded when you close.</li>
<li>An overnight fee once a day on positions held from a previous day, taken from the margin first.</li>
</ul>
<h3>Liquidation</h3>
<p>Margin is shared by all your positions in one quote currency. The risk rate compares your leverage balance plus margins plus open profit with the margins. When it falls to the liquidation threshold shown on the trading screen, <strong>all</strong> your positions in that quote currency are closed at the current mark price. You get back what is left, never less than zero; a shortfall is charged to the insurance fund.</p>
<h3>Stop-loss and take-profit</h3>
<p>Stops are checked on every mark-price update and close the position at that update’s price. In a fast market that price can be worse than the stop you set.</p>
<p>Trade with leverage only with money you can afford to lose.</p>`,
    },
    'risk.seconds': {
      title: 'Risk disclosure: seconds contracts',
      abstract:
        'A seconds contract can lose your whole stake in seconds, and on average the payout favours the exchange.',
      content: `
<p><strong>Seconds contracts are very high-risk products. Each contract can lose its whole stake within the chosen number of seconds.</strong></p>
<h3>How a contract is settled</h3>
<ul>
<li>You choose up or down, a duration and a stake. The stake and a fee on it leave your seconds-contract wallet. The fee is never refunded.</li>
<li>The opening price is the mark price recorded when the contract is accepted. The closing price is the mark price in force at the expiry instant.</li>
<li>Up wins when the closing price is higher than the opening price, down wins when it is lower. A win pays the stake plus the stated profit ratio of the stake. A loss pays nothing. An equal price returns the stake.</li>
<li>Nothing else decides the result: not your account, not the size of your stake, not a win rate. Each settled contract shows its two recorded prices.</li>
</ul>
<h3>What that means for you</h3>
<p>Price moves over a few seconds are close to unpredictable. If up and down were equally likely, a profit ratio below 100% plus the fee would make you lose money on average, and more the more contracts you open.</p>
<p>Do not use seconds contracts to try to win back losses. Stake only money you can afford to lose.</p>`,
    },
    'legal.terms': {
      title: 'Terms of use',
      abstract: 'The rules for using this exchange: your account, orders, funds and what is not allowed.',
      content: `
<p>These terms apply between you and the operator of this Fairex exchange. By opening an account you accept them.</p>
<h3>1. Who may use the exchange</h3>
<p>You must be an adult with full legal capacity, and using a crypto exchange must be lawful where you live. You may hold one account, in your own name.</p>
<h3>2. Your account</h3>
<p>Keep your password and verification codes secret. Everything done with your login counts as done by you. Tell the operator at once if you think your account has been misused.</p>
<h3>3. Orders and trades</h3>
<p>An order that matches becomes a trade and is final. Spot trades take place at the price of the order that was waiting in the book. Fees are those published on the fee pages and shown on the order form. Orders outside a pair’s limits are refused.</p>
<h3>4. Deposits and withdrawals</h3>
<p>Send deposits only on the network shown. Withdrawals are reviewed before they are sent; the operator may hold a withdrawal while it checks for fraud or a legal obligation, and returns the amount if it is rejected.</p>
<h3>5. High-risk products</h3>
<p>Leveraged contracts and seconds contracts can lose your whole stake. Read the risk disclosures before you use them. Nothing on this exchange is investment advice.</p>
<h3>6. What is not allowed</h3>
<p>Manipulating prices, trading with yourself to create volume, using someone else’s account, laundering money, or attacking or overloading the service. The operator may refuse orders, suspend an account or close it for a breach, and returns the balance that is lawfully yours.</p>
<h3>7. Availability and liability</h3>
<p>The service is provided as it is. The operator works to keep it available and correct but is not liable for losses from market movements, from your own decisions, or from events outside its control.</p>
<h3>8. Changes</h3>
<p>Changes to these terms are announced in the notices before they take effect.</p>`,
    },
    'legal.privacy': {
      title: 'Privacy policy',
      abstract: 'What this exchange stores about you, why, and what it never does with it.',
      content: `
<h3>What is stored</h3>
<ul>
<li>Your account: the e-mail address or phone number you registered with, your invite code and who invited you.</li>
<li>Your password only as a salted scrypt hash; nobody can read it back.</li>
<li>Login sessions: a random token, of which only a hash is stored. Sessions expire and end at logout and at a password change.</li>
<li>If you verify your identity: your name, ID number and the photos you upload. They are kept in private storage and never served publicly.</li>
<li>Your balances, orders, trades, deposits, withdrawals, addresses and the account log. These are financial records.</li>
</ul>
<h3>In your browser</h3>
<p>The web app keeps your login token and your choices (language, night mode, price colours, last market) in local storage. It sets no tracking cookies, uses no analytics or advertising services and loads nothing from other sites.</p>
<h3>What is shown to others</h3>
<p>The home page shows only aggregate figures of the last hour (how many trades, traders, deposits and withdrawals), never one user's activity. Nothing about you is shown to other users.</p>
<h3>Who sees your data</h3>
<p>Only the operator’s staff who need it for support, security or legal duties. Your data is not sold. It is disclosed to authorities only when the law requires it.</p>
<h3>How long</h3>
<p>Financial records are kept as long as the law requires. You may ask the operator to close your account; data that no law requires keeping is then deleted.</p>`,
    },
    'faq.what': {
      title: 'What is Fairex?',
      abstract: '',
      content:
        '<p>An open-source crypto exchange: spot trading on an order book, leveraged contracts, seconds contracts settled on recorded prices, token sales, mining and staking, P2P trade for fiat money, API keys for your own programs, and the wallets that hold it all, with every amount exact and every movement of funds recorded on both sides.</p>',
    },
    'faq.account': {
      title: 'How do I open an account?',
      abstract: '',
      content:
        '<p>Choose <strong>Sign up</strong>, enter your e-mail address or phone number, confirm it with the code we send, and choose a password of 6 to 16 characters.</p>',
    },
    'faq.deposit': {
      title: 'How do I deposit?',
      abstract: '',
      content:
        '<p>Open Assets, choose Deposit next to the currency, pick the network and send the currency to the address shown. It is credited once the network confirms it. The deposit guide in the footer has the details.</p>',
    },
    'faq.fees': {
      title: 'What does trading cost?',
      abstract: '',
      content:
        '<p>Each spot trade pays a maker or taker fee, a percentage of what you receive. Deposits are free; withdrawals pay a fixed fee. The fee pages in the footer list the figures, and the order form shows the fee before you confirm.</p>',
    },
    'faq.prices': {
      title: 'Are the prices real?',
      abstract: '',
      content:
        '<p>Every price shown is a price matched on this exchange’s order book, or the recorded reference price used for contracts; where a pair has no trade yet, its recorded mark price, marked “M”. Nothing is shifted or drawn by hand. The notice on prices explains where the reference price comes from.</p>',
    },
    'faq.seconds': {
      title: 'How is a seconds contract decided?',
      abstract: '',
      content:
        '<p>Only by the recorded market price: up wins when the price at expiry is above the price at entry, down wins when it is below, and an equal price returns the stake. The fee is not refunded.</p>',
    },
    'faq.leverage-loss': {
      title: 'Can I lose more than I put in with leverage?',
      abstract: '',
      content:
        '<p>No. You can lose everything in your leverage wallet for that quote currency, but your balance never goes below zero: a shortfall after liquidation is charged to the insurance fund.</p>',
    },
    'commitment.exact': {
      title: 'Exact to the smallest unit',
      abstract:
        'Your balance is a whole number of the currency’s smallest unit. Nothing is ever rounded away.',
      content: '',
    },
    'commitment.double-entry': {
      title: 'Every movement has two sides',
      abstract:
        'Each transfer debits one account and credits another, and every currency sums to exactly zero.',
      content: '',
    },
    'commitment.real-prices': {
      title: 'Prices that really traded',
      abstract: 'A price on a chart is a price at which two orders matched. No candle is drawn by hand.',
      content: '',
    },
    'commitment.fair-outcomes': {
      title: 'Outcomes from the market alone',
      abstract: 'A seconds contract is settled on the recorded market price at expiry. Nobody picks winners.',
      content: '',
    },
    'commitment.open-source': {
      title: 'Open for anyone to check',
      abstract: 'The code of the whole exchange is open. Anyone can read how an order is matched.',
      content: '',
    },
    'built.postgresql': { title: 'PostgreSQL', abstract: 'The database behind every record', content: '' },
    'built.nodejs': { title: 'Node.js', abstract: 'The runtime of the server', content: '' },
    'built.fastify': { title: 'Fastify', abstract: 'The web server framework', content: '' },
    'built.react': { title: 'React', abstract: 'The user interface', content: '' },
    'built.socketio': { title: 'Socket.IO', abstract: 'Live prices and updates', content: '' },
    'built.antd': { title: 'Ant Design', abstract: 'The interface components', content: '' },
  },
};
