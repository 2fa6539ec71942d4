"""The moderation site at /admin on `summit serve`, in a real browser: Debian's chromium
driven through chromedriver (Selenium). People make, share and report things through
the public API (AirStrive's key, as the app does); an admin signs in and moderates in
the browser; the public API shows the effect.

Run by GatewayTests' AdminSiteBrowserTests as `python admin_site.py CONFIG.json`, with
{"url": the gateway, "tls": the same gateway through nginx with TLS, "airstrive_anon": key,
"resort": a published resort's id, "summit": the summit binary, "database_url": its
database, "screenshots": a folder}. One TAP line per step; a screenshot of every page
lands in the folder.
"""

import asyncio
import base64
import datetime
import http.server
import os
import subprocess
import threading
import uuid

import httpx
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from support import CONFIG, airstrive_person, check, fail, finish, now, ok, sync_push as push

URL = CONFIG["url"]
PASSWORD = "correct horse battery"
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
SHOTS = CONFIG["screenshots"]


async def person(name):
    c, id_, _ = await airstrive_person(URL, name)
    return c, id_


async def shared_grid(c, title, word):
    themes = (await c.table("themes").select("slug").eq("active", True).order("sort").execute()).data
    grid = {"theme": themes[0]["slug"], "id": str(uuid.uuid4()), "title": title, "size": 7, "color": "sky",
            "squares": [f"{word} {i}" for i in range(49)], "shared": True, "updated_at": now()}
    made = (await c.rpc("save_grid", {"p_grid": grid}).execute()).data
    if not made or not made.get("grid"):
        fail(f"save_grid {title}", str(made))
    return grid["id"]


async def in_atlas(c, title):
    found = (await c.rpc("atlas_search", {"p_query": title}).execute()).data or []
    return any(card["title"] == title for card in found)


async def moment_with_photo(c, user_id, webp):
    """A Friends moment on a starter grid's open square, with one uploaded photo."""
    device = str(uuid.uuid4())
    starters = (await c.table("grids").select("id").eq("kind", "starter").order("title").execute()).data
    shelf = await push(c, "user_grids", {"id": str(uuid.uuid4()), "grid_id": starters[0]["id"], "audience": "friends"}, device)
    states = (await c.table("user_square_states").select("*").eq("user_grid_id", shelf["id"]).execute()).data
    square = next(s for s in states if s.get("state") == "revealed")
    moment = await push(c, "moments", {"id": str(uuid.uuid4()), "user_square_id": square["id"], "title": "Night swim",
                                       "body": "We swam at midnight.", "happened_on": datetime.date.today().isoformat(),
                                       "audience": "friends"}, device)
    photo = await push(c, "photos", {"id": str(uuid.uuid4()), "moment_id": moment["id"]}, device)
    await c.storage.from_("photos").upload(f"{user_id}/{photo['id']}.webp", webp, {"content-type": "image/webp"})
    await c.rpc("photo_uploaded", {"p_photo_id": photo["id"]}).execute()
    return moment["id"]


# --- the browser --------------------------------------------------------------------------------

def browser():
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not os.access(tool, os.X_OK):
            fail("a browser", f"{tool} is missing: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                     "--ignore-certificate-errors", "--lang=en-US"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def shoot(d, name):
    """The whole page, not just the window."""
    height = d.execute_script("return Math.max(document.body.scrollHeight, 600)")
    d.set_window_size(1280, min(height + 140, 6000))
    path = os.path.join(SHOTS, f"{name}.png")
    d.save_screenshot(path)
    d.set_window_size(1280, 900)
    return path


def sign_in(d, base, email, password=PASSWORD):
    d.delete_all_cookies()
    d.get(base + "/admin/sign-in")
    d.find_element(By.NAME, "email").send_keys(email)
    d.find_element(By.NAME, "password").send_keys(password)
    follow(d, d.find_element(By.CSS_SELECTOR, "form.sign-in button"))


def follow(d, element):
    """Clicks a link or button and waits for the next page."""
    element.click()
    left(d, element)


def left(d, element):
    """Waits until `element`'s page is gone (chromedriver may say so with a stale
    reference or with a node that no longer belongs to the document)."""
    def gone(_):
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return True
    WebDriverWait(d, 10).until(gone)


def submit(d, action, note=None, confirm=True, until=None):
    """Fills and sends the form posting to `action`; accepts its confirmation when it asks."""
    form = d.find_element(By.CSS_SELECTOR, f'form[action="{action}"]')
    if note is not None:
        form.find_element(By.NAME, "note").send_keys(note)
    if until is not None:
        d.execute_script("arguments[0].value = arguments[1]", form.find_element(By.NAME, "until"), until)
    form.find_element(By.CSS_SELECTOR, "button").click()
    if confirm:
        WebDriverWait(d, 5).until(expected_conditions.alert_is_present()).accept()
    left(d, form)


def text(d):
    return d.find_element(By.TAG_NAME, "main").text


def session_cookie(d):
    return next((c for c in d.get_cookies() if c["name"] == "summit_admin"), None)


def no_alert(d):
    try:
        d.switch_to.alert
        return False
    except NoAlertPresentException:
        return True


def webp_from(d):
    """A real WebP picture, encoded by the browser itself."""
    d.get("about:blank")
    data = d.execute_script("""
        const c = document.createElement('canvas'); c.width = 96; c.height = 96;
        const g = c.getContext('2d'); g.fillStyle = '#1f5fd1'; g.fillRect(0, 0, 96, 96);
        g.fillStyle = '#ffd400'; g.beginPath(); g.arc(48, 48, 30, 0, 2 * Math.PI); g.fill();
        return c.toDataURL('image/webp');""")
    if not data.startswith("data:image/webp;base64,"):
        fail("the browser encodes a WebP", data[:40])
    return base64.b64decode(data.split(",", 1)[1])


class Attacker(http.server.BaseHTTPRequestHandler):
    """Another site: a page whose form posts to the admin site the moment it loads."""
    target = ""

    def do_GET(self):
        page = (f'<form id="f" method="post" action="{self.target}"><input name="note" value="forged"></form>'
                '<script>document.getElementById("f").submit()</script>').encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, *arguments):
        pass


async def main():
    os.makedirs(SHOTS, exist_ok=True)
    print(f"# screenshots: {SHOTS}", flush=True)
    d = browser()
    try:
        await run(d)
    finally:
        d.quit()
    finish()


async def run(d):
    # Each run has a fresh database of its own: plain names.
    hostile = "<script>alert(1)</script> Shouting"
    ada, ada_id = await person("ada")
    mia, mia_id = await person("mia")
    ned, ned_id = await person("ned")
    ola, _ = await person("ola")
    granted = subprocess.run([CONFIG["summit"], "admin", "grant", "ada"], capture_output=True, text=True,
                             env={**os.environ, "DATABASE_URL": CONFIG["database_url"]})
    check(granted.returncode == 0 and "is now an admin" in granted.stdout, "summit admin grant makes ada an admin",
          granted.stdout + granted.stderr)

    await mia.rpc("send_friend_request", {"p_user_id": ned_id}).execute()
    await ned.rpc("send_friend_request", {"p_user_id": mia_id}).execute()
    loud = await shared_grid(mia, hostile, "Shout")
    quiet_title = "Quiet walks"
    await shared_grid(mia, quiet_title, "Whisper")
    moment = await moment_with_photo(mia, mia_id, webp_from(d))
    for target, id_, reason, details in [("grid", loud, "spam", "ads everywhere <img src=x onerror=alert(2)>"),
                                         ("moment", moment, "offensive", "not nice"),
                                         ("user", mia_id, "harassment", "")]:
        answer = (await ned.rpc("report", {"p_target_type": target, "p_target_id": id_, "p_reason": reason,
                                           "p_details": details}).execute()).data
        if answer.get("status") != "received":
            fail(f"ned reports the {target}", str(answer))
    check(await in_atlas(ola, hostile), "mia's grid is in the Atlas; ned reports it, her moment and her")

    # --- no session: the sign-in page, whatever the URL ---------------------------------------------
    d.get(URL + "/admin/reports?status=all")
    check("/admin/sign-in" in d.current_url and d.find_elements(By.NAME, "password"),
          "a direct URL without a session leads to the sign-in page", d.current_url)
    shoot(d, "01-sign-in")
    for path in ("/admin/log", f"/admin/people/{mia_id}", f"/admin/resorts/{CONFIG['resort']}",
                 f"/admin/resorts/{CONFIG['resort']}/graph.svg"):
        d.get(URL + path)
        if "/admin/sign-in" not in d.current_url:
            fail("every admin page needs a session", f"{path} answered {d.current_url}")
    ok("the log, a person, a resort and its drawing all lead to the sign-in page too")

    # --- a non-admin gets nothing -----------------------------------------------------------------------
    sign_in(d, URL, "ned@example.test")
    check("is not an admin" in text(d) and session_cookie(d) is None,
          "a non-admin's right password gets a refusal and no session cookie", text(d)[:300])
    shoot(d, "02-not-a-moderator")
    d.get(URL + "/admin/reports")
    check("/admin/sign-in" in d.current_url, "... and the queue still leads to sign-in", d.current_url)
    sign_in(d, URL, "ada@example.test", password="not the password")
    check("Wrong email or password" in text(d) and session_cookie(d) is None, "a wrong password is refused", text(d)[:200])

    # --- the admin signs in and sees the reports ----------------------------------------------------
    sign_in(d, URL, "ada@example.test")
    cookie = session_cookie(d)
    check(d.current_url.endswith("/admin/reports") and cookie and cookie["httpOnly"] and cookie["sameSite"] == "Lax",
          "ada signs in: the queue, with an HttpOnly SameSite=Lax session cookie", f"{d.current_url} {cookie}")
    rows = d.find_elements(By.CSS_SELECTOR, "table.queue tbody tr")
    row = next((r for r in rows if hostile in r.text), None)
    check(row is not None and "@ned" in row.text and "spam" in row.text,
          "the grid report is listed with its title as text, the reason and the reporter", text(d)[:600])
    check(no_alert(d) and not d.find_elements(By.CSS_SELECTOR, "main script") and "<img src=x" in text(d),
          "a <script> title and an <img onerror> in the details render as text, and run nothing")
    thumb = next(r for r in rows if "Night swim" in r.text).find_element(By.CSS_SELECTOR, "img.thumb")
    check(d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", thumb) == 96,
          "the moment report shows its photo's thumbnail (96 px, through the admin's own storage read)")
    shoot(d, "03-reports")

    # --- hide the grid: it leaves the Atlas; unhide: it comes back -----------------------------------
    follow(d, row.find_element(By.CSS_SELECTOR, "a.target"))
    check(hostile in d.title and "ads everywhere" in text(d) and "Shout 0" in text(d),
          "the report's page shows the grid as reported: title, details and squares", d.title)
    shoot(d, "04-report-grid")
    submit(d, f"/admin/grids/{loud}/hide", note="spam grid")
    check("The grid is hidden" in text(d) and "hidden since" in text(d) and "actioned" in text(d),
          "Hide grid (after its confirmation) hides it and actions the report", text(d)[:400])
    check(not await in_atlas(ola, hostile), "the hidden grid has left the Atlas (ola's atlas_search)")
    shoot(d, "05-report-grid-hidden")
    submit(d, f"/admin/grids/{loud}/unhide", note="second look", confirm=False)
    check("visible again" in text(d) and await in_atlas(ola, hostile), "Unhide grid puts it back in the Atlas")

    # --- forged requests change nothing -----------------------------------------------------------
    jar = {"summit_admin": session_cookie(d)["value"]}
    async with httpx.AsyncClient(cookies=jar) as client:
        origin = {"Origin": URL, "Content-Type": "application/x-www-form-urlencoded"}
        tokenless = await client.post(f"{URL}/admin/grids/{loud}/hide", headers=origin, content="note=forged")
        token = d.find_element(By.CSS_SELECTOR, 'form.action input[name="csrf"]').get_attribute("value")
        elsewhere = await client.post(f"{URL}/admin/grids/{loud}/hide", content=f"csrf={token}&note=forged",
                                    headers={**origin, "Origin": "https://evil.example"})
        by_get = await client.get(f"{URL}/admin/grids/{loud}/hide")
    check(tokenless.status_code == 403 and elsewhere.status_code == 403 and by_get.status_code == 404
          and await in_atlas(ola, hostile),
          "a POST without the form token, one from another origin, and a GET are refused; the grid stays",
          f"{tokenless.status_code} {elsewhere.status_code} {by_get.status_code}")
    Attacker.target = f"{URL}/admin/grids/{loud}/hide"
    attacker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
    threading.Thread(target=attacker.serve_forever, daemon=True).start()
    d.get(f"http://localhost:{attacker.server_port}/")
    WebDriverWait(d, 10).until(lambda d: "/admin/" in d.current_url)
    check(await in_atlas(ola, hostile) and "Sign in first" in d.page_source,
          "another site's auto-submitting form reaches the admin site without the session cookie: nothing hidden",
          d.page_source[:300])
    attacker.shutdown()

    # --- the moment, then the grid again: the automatic suspension ---------------------------------
    d.get(URL + "/admin/reports")
    follow(d, d.find_element(By.PARTIAL_LINK_TEXT, "Night swim"))
    photo = d.find_element(By.CSS_SELECTOR, ".photos img")
    check("We swam at midnight." in text(d) and d.execute_script("return arguments[0].naturalWidth", photo) == 96,
          "the moment report shows the moment's text and photo", text(d)[:300])
    shoot(d, "06-report-moment")
    submit(d, f"/admin/moments/{moment}/hide", note="not for everyone")
    check("hidden from everyone but its owner" in text(d), "Hide moment hides it")
    seen = (await ned.rpc("person_moment", {"p_moment_id": moment}).execute()).data
    check(not seen, "ned, her friend, no longer sees the moment", str(seen)[:200])
    d.get(URL + "/admin/reports?status=actioned")
    broken = d.execute_script("return [...document.images].filter(i => !(i.complete && i.naturalWidth)).length")
    check("Night swim" in text(d) and broken == 0, "closed reports show no picture rather than a broken one", str(broken))
    follow(d, d.find_element(By.PARTIAL_LINK_TEXT, "alert(1)"))
    submit(d, f"/admin/grids/{loud}/hide", note="again")
    follow(d, d.find_element(By.LINK_TEXT, "@mia"))
    page = text(d)
    check("Sharing suspended" in page and "The automatic rule fired" in page and hostile in page and "Night swim" in page
          and "not unhidden: 2 (and 1 undone)" in page,
          "two hides in 30 days: mia's page shows the automatic suspension and the two hides that fired it", page[:900])
    check(not await in_atlas(ola, quiet_title), "her other shared grid has left the Atlas with the suspension")
    shoot(d, "07-person-auto-suspended")

    # --- lift, suspend until a date, lift --------------------------------------------------------
    submit(d, f"/admin/people/{mia_id}/lift", note="she apologised", confirm=False)
    check("Sharing allowed" in text(d) and await in_atlas(ola, quiet_title), "Lift puts her shared grids back in the Atlas")
    until = (datetime.date.today() + datetime.timedelta(days=7)).isoformat()
    submit(d, f"/admin/people/{mia_id}/suspend", note="cooling off", until=until)
    check("Sharing suspended" in text(d) and "until" in text(d) and not await in_atlas(ola, quiet_title),
          f"Suspend until {until} suspends her sharing", text(d)[:400])
    submit(d, f"/admin/people/{mia_id}/lift", confirm=False)
    check("Sharing allowed" in text(d), "... and Lift lifts it")
    past = (datetime.date.today() - datetime.timedelta(days=2)).isoformat()
    submit(d, f"/admin/people/{mia_id}/suspend", until=past)
    check("must end in the future" in text(d) and "Nothing was changed" in text(d),
          "a suspension ending in the past is refused, saying why", text(d)[:300])

    # --- dismiss, the log --------------------------------------------------------------------------
    d.get(URL + "/admin/reports")
    person_report = next(r for r in d.find_elements(By.CSS_SELECTOR, "table.queue tbody tr") if "Person" in r.text)
    follow(d, person_report.find_element(By.CSS_SELECTOR, "a.target"))
    shoot(d, "08-report-person")
    report_id = d.current_url.rstrip("/").split("/")[-1].split("?")[0]
    submit(d, f"/admin/reports/{report_id}/dismiss", note="not harassment", confirm=False)
    check("dismissed" in text(d), "Dismiss report dismisses it")
    d.get(URL + "/admin/reports")
    check("No open reports" in text(d), "the open queue is empty", text(d)[:300])
    d.get(URL + "/admin/log")
    log = text(d)
    check(all(word in log for word in ("Hid grid", "Unhid grid", "Hid moment", "Suspended sharing", "Lifted suspension",
                                       "Dismissed report", "automatic rule", "@ada", "spam grid")),
          "the log lists every action, the automatic one and ada's, with their notes", log[:900])
    shoot(d, "09-log")

    # --- the resorts -----------------------------------------------------------------------------
    d.get(URL + "/admin/resorts")
    follow(d, d.find_element(By.PARTIAL_LINK_TEXT, "Demo Peaks"))
    graph = d.find_element(By.CSS_SELECTOR, "figure.graph img")
    WebDriverWait(d, 60).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", graph))
    check("open lift tops reaching an open run" in text(d) and "meet sample" in text(d)
          and d.execute_script("return arguments[0].naturalWidth", graph) >= 1000,
          "the resort page draws the published graph beside the review's routability figures", text(d)[:500])
    shoot(d, "10-resort")
    d.get(URL + "/admin/resorts")
    shoot(d, "11-resorts")

    # --- through TLS: a Secure cookie, and forms that pass the origin check ---------------------------
    sign_in(d, CONFIG["tls"], "ada@example.test")
    secure = session_cookie(d)
    check(secure and secure["secure"] and d.current_url.startswith(CONFIG["tls"]),
          "through nginx with TLS, the session cookie is Secure", f"{secure} {d.current_url} {text(d)[:300]}")
    d.get(f"{CONFIG['tls']}/admin/people/{mia_id}")
    submit(d, f"/admin/people/{mia_id}/suspend", note="over TLS")
    submit(d, f"/admin/people/{mia_id}/lift", confirm=False)
    check("Sharing allowed" in text(d), "suspend and lift work through the proxy (its Origin is the site's)")

    # --- sign out ends the session everywhere ---------------------------------------------------------
    sign_in(d, URL, "ada@example.test")
    old = session_cookie(d)["value"]
    follow(d, d.find_element(By.CSS_SELECTOR, "form.who button"))
    check("You are signed out" in text(d) and session_cookie(d) is None, "Sign out signs out")
    async with httpx.AsyncClient(cookies={"summit_admin": old}, follow_redirects=False) as client:
        replayed = await client.get(f"{URL}/admin/reports")
    check(replayed.status_code == 303 and "/admin/sign-in" in replayed.headers.get("location", ""),
          "the signed-out cookie, replayed, opens nothing", str(replayed.status_code))
    for c in (ada, mia, ned, ola):
        await c.auth.sign_out()


asyncio.run(main())
